import { z } from 'zod';

/**
 * What a job carries: any JSON value. It is stored as JSON, so a `Date` comes back as a string
 * and `undefined` is refused: pass ids and timestamps as strings or numbers.
 */
export type JobPayload = z.infer<typeof jobPayloadSchema>;
export const jobPayloadSchema = z.json();

/** A job name: the handler that runs it (`reservation.timeout`, `queue.age_check`). */
export const jobNameSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,99}$/, 'a job name is lower-case letters, digits and _ . : - (at most 100), starting with a letter');

/** A job to schedule. */
export const jobSpecSchema = z.object({
  /**
   * Names the timer: at most one job per key is pending, and scheduling a key that is pending
   * replaces that job (its name, payload, run time and attempts). Keys are chosen by the caller
   * and say what the timer is for (`reservation:res_…:timeout`).
   */
  key: z.string().min(1).max(500),
  name: jobNameSchema,
  payload: jobPayloadSchema,
  /** Not before this instant (a time in the past means as soon as a worker is free). */
  runAt: z.date().refine((d) => !Number.isNaN(d.getTime()), 'runAt is not a valid date'),
  /** Runs of the handler before the job is recorded as failed (default 5). */
  maxAttempts: z.number().int().min(1).max(100).optional(),
});
export type JobSpec = z.input<typeof jobSpecSchema>;

export const DEFAULT_MAX_ATTEMPTS = 5;

/** A job as its handler receives it. */
export interface Job {
  /** The queue's id of this job (one job per schedule; a replaced pending job keeps its id). */
  id: string;
  key: string;
  name: string;
  payload: JobPayload;
  runAt: Date;
  /** Which run this is, from 1; at most `maxAttempts`. */
  attempt: number;
  maxAttempts: number;
}

/** What the queue knows of a key: its pending or running job, else the latest that finished. */
export type JobStatus =
  | {
      state: 'pending' | 'running';
      key: string;
      name: string;
      runAt: Date;
      attempts: number;
      maxAttempts: number;
      lastError: string | null;
    }
  | { state: 'failed'; key: string; name: string; attempts: number; lastError: string }
  | { state: 'done'; key: string; name: string; doneAt: Date };

/**
 * What the queue tells its owner (to log, to count): a run that threw and will be tried again, a
 * job that used up its attempts, a run whose lease another worker took over, a background error.
 */
export type JobEvent =
  | { type: 'job.retrying'; job: Job; error: string; nextRunAt: Date }
  | { type: 'job.failed'; job: Job; error: string }
  | { type: 'job.lease_lost'; job: Job }
  | { type: 'queue.error'; error: string };

/**
 * Handlers by job name. A handler's effect must either commit through `ctx.completeWith` (effect
 * and completion in one transaction: exactly once) or be idempotent by the job's key (it may run
 * again if the process dies between the effect and the completion). A handler that throws is tried
 * again with back-off, up to the job's `maxAttempts`.
 */
export type JobHandlers<Ctx> = Readonly<Record<string, (job: Job, ctx: Ctx) => unknown>>;

/** Given to every handler, on every store. */
export interface JobContext {
  /** Aborted when this run's lease was taken over (another worker may be running the job): stop early. */
  signal: AbortSignal;
}

/**
 * A durable queue of timers, in the store's own database (docs/jobs.md). Scheduling, cancelling
 * and reading work without `start`; `start` makes this process run due jobs too, and several
 * processes may run one queue: each job runs once at a time, under a lease.
 */
export interface JobQueue<Ctx extends JobContext = JobContext> {
  readonly kind: 'sqlite' | 'postgres';
  /** Schedules `spec.key`, replacing its pending job if there is one. A job of that key already running finishes but is not retried. */
  schedule(spec: JobSpec): Promise<void>;
  /** Removes the key's pending job; a running one finishes but is not retried. Idempotent: false when there was nothing to cancel. */
  cancel(key: string): Promise<boolean>;
  /** The key's pending or running job, else the latest that finished, else null. */
  status(key: string): Promise<JobStatus | null>;
  /**
   * Forgets the records of jobs done before `before` (and, on SQLite, of jobs failed before it);
   * returns how many. A pruned key reads as never scheduled. Keep well past the longest lease.
   */
  prune(before: Date): Promise<number>;
  /** Starts running due jobs of the handlers' names in this process. Once per queue. */
  start(handlers: JobHandlers<Ctx>): Promise<void>;
  /** Drains: takes no new job and resolves once the running handlers have finished. */
  stop(): Promise<void>;
  /** Stops, then releases what the queue opened (connections; never the store's own). */
  close(): Promise<void>;
}

/** The run's lease was taken over by another worker: nothing was committed by `completeWith`. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
  constructor(readonly job: Job) {
    super(`job ${job.id} (${job.key}) is no longer this worker's to complete: its lease was taken over; nothing was committed`);
  }
}

/** Validates a spec (a bad one is the caller's bug: it throws with what to change). */
export function parseJobSpec(spec: JobSpec): z.output<typeof jobSpecSchema> & { maxAttempts: number } {
  const parsed = jobSpecSchema.safeParse(spec);
  if (!parsed.success) throw new TypeError(`invalid job spec: ${z.prettifyError(parsed.error)}`);
  return { ...parsed.data, maxAttempts: parsed.data.maxAttempts ?? DEFAULT_MAX_ATTEMPTS };
}

/** Checks handler names before the first job is taken. */
export function assertHandlers<Ctx>(handlers: JobHandlers<Ctx>): string[] {
  const names = Object.keys(handlers);
  if (names.length === 0) throw new TypeError('start() needs at least one handler');
  for (const name of names) {
    if (!jobNameSchema.safeParse(name).success) throw new TypeError(`invalid job name ${JSON.stringify(name)}`);
    if (typeof handlers[name] !== 'function') throw new TypeError(`the handler of ${name} is not a function`);
  }
  return names;
}

/** graphile-worker's back-off, used on both stores: e^attempt seconds (capped at e^10 ≈ 6 h). */
export const exponentialBackoffMs = (attempt: number): number => Math.round(Math.exp(Math.min(attempt, 10)) * 1000);

/** A thrown value as the text stored as a job's last error. */
export const errorText = (error: unknown): string =>
  (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 2_000);
