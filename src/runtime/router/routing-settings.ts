import { z } from 'zod';
import {
  AssignmentOrderSchema,
  ChannelWeightsSchema,
  DEFAULT_CHANNEL_WEIGHTS,
  NoCapacityOptionSchema,
  RouterSkillSchema,
  type RoutingQueue,
} from '../../core/router/index.js';
import { AvailabilityCalendarSchema, type AvailabilityCalendar } from './availability-calendar.js';

const QueueIdText = z.string().regex(/^queue_[A-Za-z0-9_-]{1,120}$/, { message: 'a queue id has the form queue_…' });

/** One queue as `baton.config.json` routes it. */
export const RoutedQueueSchema = z.strictObject({
  id: QueueIdText,
  /** Skills a person needs, all of them (beyond the domain's own list for the queue, of which one is enough). */
  skills: z.array(RouterSkillSchema).max(20).default([]),
  /** Seconds a person has to accept an offer before it goes to someone else. */
  reservationTimeoutSeconds: z.number().positive().max(3600).default(30),
  /** Seconds a conversation waits in this queue before it moves to `fallback` (or to a callback). */
  waitTimeoutSeconds: z
    .number()
    .positive()
    .max(7 * 86_400)
    .default(1800),
  fallback: QueueIdText.optional(),
  order: AssignmentOrderSchema.default('longest_idle'),
  /** What the customer is offered when nobody who can help is on shift (or the queue is closed). */
  whenNoCapacity: NoCapacityOptionSchema.default({ type: 'callback' }),
  /** Opening hours; absent: always open. */
  hours: AvailabilityCalendarSchema.optional(),
});
export type RoutedQueue = z.infer<typeof RoutedQueueSchema>;

/** The `routing` section of `baton.config.json`. */
export const RoutingSettingsSchema = z
  .strictObject({
    queues: z.array(RoutedQueueSchema).max(200).default([]),
    /** Capacity of each person in weight units (a chat weighs 1, a callback 2, by default). */
    staffCapacity: z.number().int().min(1).max(100).default(3),
    weights: ChannelWeightsSchema.default(DEFAULT_CHANNEL_WEIGHTS),
    /** A conversation waiting longer than this raises a queue-age alert (an event and a Prometheus metric). */
    queueAgeAlertSeconds: z
      .number()
      .positive()
      .max(7 * 86_400)
      .default(600),
    /** Skills a hand-off's reason adds to what it needs (e.g. `{"legal": ["legal"]}`). */
    reasonSkills: z.record(z.string(), z.array(RouterSkillSchema).max(10)).default({}),
  })
  .superRefine((settings, ctx) => {
    const ids = new Set(settings.queues.map((q) => q.id));
    for (const [i, q] of settings.queues.entries()) {
      if (settings.queues.findIndex((o) => o.id === q.id) !== i)
        ctx.addIssue({ code: 'custom', path: ['queues', i, 'id'], message: `${q.id} is listed twice` });
      if (q.fallback !== undefined && !ids.has(q.fallback))
        ctx.addIssue({ code: 'custom', path: ['queues', i, 'fallback'], message: `there is no queue ${q.fallback} in routing.queues` });
      if (q.fallback === q.id)
        ctx.addIssue({ code: 'custom', path: ['queues', i, 'fallback'], message: 'a queue cannot fall back to itself' });
    }
  });
export type RoutingSettings = z.infer<typeof RoutingSettingsSchema>;

/** A queue's routing as the router uses it: the core's queue, its hours and its route on. */
export interface QueuePlan {
  queue: RoutingQueue;
  waitTimeoutSeconds: number;
  fallback: string | null;
  hours: AvailabilityCalendar | null;
}

/** Every queue the router knows: the configured ones, and the domain's with defaults. */
export function queuePlans(settings: RoutingSettings, domainQueues: readonly string[]): Map<string, QueuePlan> {
  const plans = new Map<string, QueuePlan>();
  const defaults = RoutedQueueSchema.parse({ id: 'queue_default' });
  for (const id of domainQueues) {
    const configured = settings.queues.find((q) => q.id === id) ?? { ...defaults, id };
    plans.set(id, planOf(configured));
  }
  for (const q of settings.queues) if (!plans.has(q.id)) plans.set(q.id, planOf(q));
  return plans;
}

function planOf(q: RoutedQueue): QueuePlan {
  return {
    queue: {
      id: q.id,
      skills: q.skills,
      reservationTimeoutSeconds: q.reservationTimeoutSeconds,
      order: q.order,
      whenNoCapacity: q.whenNoCapacity,
    },
    waitTimeoutSeconds: q.waitTimeoutSeconds,
    fallback: q.fallback ?? null,
    hours: q.hours ?? null,
  };
}
