import { TZDate } from '@date-fns/tz';
import { addDays, format, getDay, startOfDay } from 'date-fns';
import { z } from 'zod';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** One stretch of wall-clock hours in the calendar's time zone, `from` inclusive, `to` exclusive (`24:00` ends the day). */
export const HoursSchema = z
  .object({
    from: z.string().regex(TIME, { message: 'a time is HH:MM (00:00 to 24:00)' }),
    to: z.string().regex(TIME, { message: 'a time is HH:MM (00:00 to 24:00)' }),
  })
  .strict()
  .refine((h) => minutes(h.from) < minutes(h.to), { message: 'hours must end after they start (split a night across two days)' });
export type Hours = z.infer<typeof HoursSchema>;

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const day = z.array(HoursSchema).default([]);

/**
 * An availability calendar — a queue's opening hours or a person's shifts: weekly wall-clock hours
 * in an IANA time zone, holidays (closed all day) and exceptions (other hours on one date, which
 * win over a holiday). DST is the time zone's business: hours are wall-clock, so a 09:00 shift
 * starts at 09:00 local on both sides of a change.
 */
export const AvailabilityCalendarSchema = z
  .object({
    timeZone: z.string().refine(validTimeZone, { message: 'timeZone must be an IANA time zone such as Europe/Dublin' }),
    weekly: z.object({ mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day }).strict(),
    holidays: z.array(z.string().regex(DATE, { message: 'a holiday is a date YYYY-MM-DD' })).default([]),
    exceptions: z
      .array(
        z.object({ date: z.string().regex(DATE, { message: 'an exception date is YYYY-MM-DD' }), hours: z.array(HoursSchema) }).strict(),
      )
      .default([]),
  })
  .strict();
export type AvailabilityCalendar = z.infer<typeof AvailabilityCalendarSchema>;

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The hours that apply on one local date. */
function hoursOn(calendar: AvailabilityCalendar, local: TZDate): readonly Hours[] {
  const date = format(local, 'yyyy-MM-dd');
  const exception = calendar.exceptions.find((e) => e.date === date);
  if (exception !== undefined) return exception.hours;
  if (calendar.holidays.includes(date)) return [];
  return calendar.weekly[DAYS[getDay(local)] ?? 'sun'];
}

/** Whether the calendar is open at an instant (ms since the epoch). */
export function isOpenAt(calendar: AvailabilityCalendar, atMs: number): boolean {
  const local = new TZDate(atMs, calendar.timeZone);
  const m = local.getHours() * 60 + local.getMinutes();
  return hoursOn(calendar, local).some((h) => minutes(h.from) <= m && m < minutes(h.to));
}

/** An instant when the calendar opens or closes. */
export interface CalendarChange {
  atMs: number;
  open: boolean;
}

/**
 * Every opening and closing in [fromMs, toMs), in order, as instants. Each local day's hours are
 * turned into instants by TZDate in the calendar's zone, so a day of 23 or 25 hours is handled by
 * the time-zone database, not by arithmetic here. Adjacent stretches (a close and an open at the
 * same instant) cancel out.
 */
export function calendarChanges(calendar: AvailabilityCalendar, fromMs: number, toMs: number): CalendarChange[] {
  const raw: CalendarChange[] = [];
  let local: TZDate = startOfDay(addDays(new TZDate(fromMs, calendar.timeZone), -1));
  while (local.getTime() < toMs) {
    for (const h of hoursOn(calendar, local)) {
      raw.push({ atMs: at(local, h.from), open: true }, { atMs: at(local, h.to), open: false });
    }
    local = startOfDay(addDays(local, 1));
  }
  raw.sort((a, b) => a.atMs - b.atMs || Number(a.open) - Number(b.open));
  const out: CalendarChange[] = [];
  let open = isOpenAt(calendar, fromMs);
  for (const change of raw) {
    if (change.atMs < fromMs || change.atMs >= toMs) continue;
    const now = isOpenAt(calendar, change.atMs);
    if (now !== open) {
      out.push({ atMs: change.atMs, open: now });
      open = now;
    }
  }
  return out;
}

/** The next instant at or after `fromMs` when the calendar is open, within `horizonMs`; `null` if none. */
export function nextOpenAt(calendar: AvailabilityCalendar, fromMs: number, horizonMs = 14 * 86_400_000): number | null {
  if (isOpenAt(calendar, fromMs)) return fromMs;
  const change = calendarChanges(calendar, fromMs, fromMs + horizonMs).find((c) => c.open);
  return change?.atMs ?? null;
}

/** A local wall-clock time on the day of `local`, as an instant (24:00 is the next midnight). */
function at(local: TZDate, hhmm: string): number {
  const m = minutes(hhmm);
  return new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), Math.floor(m / 60), m % 60, zoneOf(local)).getTime();
}

const zoneOf = (local: TZDate): string => local.timeZone ?? 'UTC';
