import {
  DEFAULT_CHANNEL_WEIGHTS,
  RoutingQueueSchema,
  type ChannelWeights,
  type RoutingQueue,
  type RoutingStaff,
} from '../../core/router/index.js';
import { AvailabilityCalendarSchema, type AvailabilityCalendar } from '../../runtime/router/availability-calendar.js';

/** One simulated person: what the router knows of them, and their shifts (`null`: always on). */
export interface SimStaff {
  staff: RoutingStaff;
  shift: AvailabilityCalendar | null;
}

/** Everything a simulated segment is made of; arrival rates follow from it and the load. */
export interface SimScenario {
  name: 'mixed' | 'stationary';
  /** Virtual start time (ms since the epoch). */
  startMs: number;
  /** The queue each channel's conversations go to: chats to the chat team, callbacks to the phone team. */
  queues: Record<'chat' | 'callback', RoutingQueue>;
  /** The queues' opening hours; `null`: always open. */
  queueCalendar: AvailabilityCalendar | null;
  staff: SimStaff[];
  weights: ChannelWeights;
  /** Share of off-hours conversations on chat (in hours, each queue's arrivals follow its own staffing). */
  chatShare: number;
  meanServiceMs: { chat: number; callback: number };
  /** Share of offers declined (after a few seconds) and left unanswered (timing out). */
  declineRate: number;
  noShowRate: number;
  /** Seconds before an offer is answered, uniform in [min, max]. */
  answerSeconds: [number, number];
  /** Bursts: every `everyHours` on average, for `minutes`, arrivals run `factor` times faster. */
  bursts: { everyHours: number; minutes: number; factor: number } | null;
  goldShare: number;
  safetyShare: number;
  /** Arrivals per hour while nobody is on shift or the queue is closed (they get the honest options). */
  offHoursArrivalsPerHour: number;
  /** Share of the first conversations left out of the wait measurements (the queue starts empty). */
  warmupShare: number;
}

const queue = (id: string, skill: string) =>
  RoutingQueueSchema.parse({
    id,
    skills: [skill],
    reservationTimeoutSeconds: 30,
    order: 'longest_idle',
    whenNoCapacity: { type: 'callback' },
  });
const QUEUES = { chat: queue('queue_chat', 'chat'), callback: queue('queue_phone', 'phone') };

const shift = (timeZone: string, from: string, to: string, holidays: string[] = []) => {
  const h = [{ from, to }];
  return AvailabilityCalendarSchema.parse({
    timeZone,
    weekly: { mon: h, tue: h, wed: h, thu: h, fri: h, sat: h, sun: h },
    holidays,
  });
};

const team = (prefix: string, n: number, calendar: AvailabilityCalendar, skill = 'chat', capacity = 2): SimStaff[] =>
  Array.from({ length: n }, (_, i) => ({ staff: { id: `${prefix}_${i + 1}`, skills: [skill], capacity }, shift: calendar }));

/**
 * The mixed segment: Dublin-hours queues (07:00–23:00 Europe/Dublin) — chats for the chat team
 * (capacity 2: two chats at once), callbacks (weight 2) for a phone team (capacity 2: one call) —
 * staffed from Dublin (two shifts, off on the October bank holiday, Monday 26 October 2026), New
 * York (10:00–18:00) and Tokyo (09:00–17:00, mostly outside the queues' hours: it takes only safety
 * cases there). It
 * starts on Saturday 24 October 2026, so it spans Dublin's DST change (25 October, 01:00 UTC)
 * and the holiday; the New York shift moves an hour against Dublin's between the two zones'
 * changes. Chats and callbacks, gold and safety cases, bursts, declines and unanswered offers.
 */
export function mixedScenario(): SimScenario {
  return {
    name: 'mixed',
    startMs: Date.parse('2026-10-24T00:00:00Z'),
    queues: QUEUES,
    queueCalendar: shift('Europe/Dublin', '07:00', '23:00'),
    staff: [
      ...team('staff_dub_early', 8, shift('Europe/Dublin', '07:00', '15:00', ['2026-10-26'])),
      ...team('staff_dub_late', 6, shift('Europe/Dublin', '15:00', '23:00', ['2026-10-26'])),
      ...team('staff_nyc', 6, shift('America/New_York', '10:00', '18:00')),
      ...team('staff_tyo', 3, shift('Asia/Tokyo', '09:00', '17:00')),
      ...team('staff_dub_phone_early', 8, shift('Europe/Dublin', '07:00', '15:00', ['2026-10-26']), 'phone'),
      ...team('staff_dub_phone_late', 6, shift('Europe/Dublin', '15:00', '23:00', ['2026-10-26']), 'phone'),
      ...team('staff_nyc_phone', 6, shift('America/New_York', '10:00', '18:00'), 'phone'),
      ...team('staff_tyo_phone', 2, shift('Asia/Tokyo', '09:00', '17:00'), 'phone'),
    ],
    weights: DEFAULT_CHANNEL_WEIGHTS,
    chatShare: 0.85,
    meanServiceMs: { chat: 6 * 60_000, callback: 10 * 60_000 },
    declineRate: 0.04,
    noShowRate: 0.02,
    answerSeconds: [1, 8],
    bursts: { everyHours: 8, minutes: 30, factor: 1.4 },
    goldShare: 0.08,
    safetyShare: 0.005,
    offHoursArrivalsPerHour: 4,
    warmupShare: 0,
  };
}

/**
 * The stationary segment, for the Erlang-C check: M/M/c as Erlang C assumes it — `servers` people
 * of capacity 1, always on, chats only, every offer accepted at once, no bursts, one priority.
 */
export function stationaryScenario(servers = 4): SimScenario {
  return {
    name: 'stationary',
    startMs: Date.parse('2026-10-24T00:00:00Z'),
    queues: QUEUES,
    queueCalendar: null,
    staff: Array.from({ length: servers }, (_, i) => ({ staff: { id: `staff_${i + 1}`, skills: ['chat'], capacity: 1 }, shift: null })),
    weights: DEFAULT_CHANNEL_WEIGHTS,
    chatShare: 1,
    meanServiceMs: { chat: 6 * 60_000, callback: 6 * 60_000 },
    declineRate: 0,
    noShowRate: 0,
    answerSeconds: [0, 0],
    bursts: null,
    goldShare: 0,
    safetyShare: 0,
    offHoursArrivalsPerHour: 0,
    warmupShare: 0.05,
  };
}
