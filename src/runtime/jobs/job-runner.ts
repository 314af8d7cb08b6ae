import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { assertHandlers, errorText, LeaseLostError, type Job, type JobContext, type JobEvent, type JobHandlers } from './job-queue.js';

/** Options every queue that runs its own workers takes. */
export interface RunnerOptions {
  /** Longest wait between looks for due jobs (ms, default 1000): jobs scheduled by other processes are seen within it. */
  pollIntervalMs?: number;
  /** Handlers running at once in this process (default 4). */
  concurrency?: number;
  /** Retries, failures, lost leases and background errors, to log or count. Default: ignored. */
  onEvent?: (event: JobEvent) => void;
}

export interface Claimed {
  job: Job;
}

/** What the runner needs of a store. */
export interface RunnerBackend<Ctx extends JobContext> {
  /**
   * Claims up to `limit` due jobs of `names` under a lease; `waitMs` is how long until the next one
   * is due (null: none known). `running` are this worker's live runs: their leases are renewed
   * first, so that a clock that jumped (a simulator's) cannot expire a run that is still going.
   */
  claim(names: string[], limit: number, running: Job[]): Promise<{ claimed: Claimed[]; waitMs: number | null }>;
  /** Extends the leases of running jobs; returns those whose lease was taken over. */
  renew(jobs: Job[]): Promise<Job[]>;
  renewEveryMs: number;
  context(job: Job, signal: AbortSignal): Ctx;
  /** Marks the job done (the handler returned without `completeWith`); throws LeaseLostError if it was taken over. */
  complete(job: Job): Promise<void>;
  /** Records a failed run: retried later or failed for good. Throws LeaseLostError if it was taken over. */
  fail(job: Job, error: unknown): Promise<{ failed: true } | { failed: false; nextRunAt: Date }>;
}

interface Run {
  job: Job;
  controller: AbortController;
  completed: boolean;
  done: Promise<void>;
}

/**
 * The worker loop of a queue that keeps its jobs in a table: claim what is due (up to the free
 * slots), run each handler, complete or fail it, renew the leases of those still running. It waits
 * on one timer — until the next job is due, at most `pollIntervalMs` — and wakes early when this
 * process schedules a job or a handler frees a slot: no busy loop.
 */
export class JobRunner<Ctx extends JobContext> {
  readonly #pollIntervalMs: number;
  readonly #concurrency: number;
  readonly #onEvent: (event: JobEvent) => void;
  readonly #backend: RunnerBackend<Ctx>;
  readonly #runs = new Map<string, Run>();
  #handlers: JobHandlers<Ctx> | null = null;
  #names: string[] = [];
  #stopping = false;
  #loop: Promise<void> | null = null;
  #wake: (() => void) | null = null;
  #woken = false;
  #renewTimer: NodeJS.Timeout | null = null;

  constructor(options: RunnerOptions, backend: RunnerBackend<Ctx>) {
    this.#pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.#concurrency = options.concurrency ?? 4;
    this.#onEvent = options.onEvent ?? (() => {});
    this.#backend = backend;
    if (!(this.#pollIntervalMs > 0)) throw new TypeError('pollIntervalMs must be positive');
    if (!Number.isInteger(this.#concurrency) || this.#concurrency < 1) throw new TypeError('concurrency must be a positive integer');
  }

  start(handlers: JobHandlers<Ctx>): void {
    if (this.#handlers) throw new Error('this job queue was started already');
    this.#names = assertHandlers(handlers);
    this.#handlers = handlers;
    this.#loop = this.#run();
    this.#renewTimer = setInterval(() => void this.#renew(), this.#backend.renewEveryMs);
    this.#renewTimer.unref();
  }

  /** Looks for due jobs now (a job was scheduled in this process). */
  nudge(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /** The handler committed its effect with the completion: nothing is left to mark. */
  markCompleted(job: Job): void {
    const run = this.#runs.get(job.id);
    if (run && run.job.attempt === job.attempt) run.completed = true;
  }

  isCompleted(job: Job): boolean {
    return this.#runs.get(job.id)?.completed === true;
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.nudge();
    await this.#loop;
    await Promise.all([...this.#runs.values()].map((run) => run.done));
    if (this.#renewTimer) clearInterval(this.#renewTimer);
    this.#renewTimer = null;
  }

  async #run(): Promise<void> {
    while (!this.#stopping) {
      let waitMs = this.#pollIntervalMs;
      const free = this.#concurrency - this.#runs.size;
      if (free > 0) {
        try {
          const { claimed, waitMs: nextMs } = await this.#backend.claim(this.#names, free, this.#live());
          for (const { job } of claimed) this.#execute(job);
          // Every slot filled: more may be due; look again as soon as a slot frees.
          if (claimed.length === free) waitMs = this.#pollIntervalMs;
          else if (nextMs !== null) waitMs = Math.max(0, Math.min(waitMs, nextMs));
        } catch (error) {
          this.#onEvent({ type: 'queue.error', error: errorText(error) });
        }
      }
      await this.#sleep(waitMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    if (this.#woken || this.#stopping) {
      this.#woken = false;
      return yieldToLoop();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#wake?.(), ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        this.#woken = false;
        resolve();
      };
    });
  }

  #execute(job: Job): void {
    const controller = new AbortController();
    const run: Run = { job, controller, completed: false, done: Promise.resolve() };
    this.#runs.set(job.id, run);
    run.done = this.#handle(run).finally(() => {
      this.#runs.delete(job.id);
      this.nudge();
    });
  }

  async #handle(run: Run): Promise<void> {
    const { job } = run;
    const handler = this.#handlers![job.name]!;
    try {
      await handler(job, this.#backend.context(job, run.controller.signal));
    } catch (error) {
      if (run.completed) {
        // The effect and the completion committed; what the handler did after cannot undo them.
        this.#onEvent({ type: 'queue.error', error: `job ${job.id} (${job.key}) threw after it completed: ${errorText(error)}` });
        return;
      }
      if (error instanceof LeaseLostError) return this.#onEvent({ type: 'job.lease_lost', job });
      try {
        const outcome = await this.#backend.fail(job, error);
        this.#onEvent(
          outcome.failed
            ? { type: 'job.failed', job, error: errorText(error) }
            : { type: 'job.retrying', job, error: errorText(error), nextRunAt: outcome.nextRunAt },
        );
      } catch (failError) {
        this.#report(job, failError);
      }
      return;
    }
    if (run.completed) return;
    try {
      await this.#backend.complete(job);
    } catch (error) {
      // Not marked done: the lease runs out and the job is tried again (the handler is idempotent).
      this.#report(job, error);
    }
  }

  #report(job: Job, error: unknown): void {
    if (error instanceof LeaseLostError) this.#onEvent({ type: 'job.lease_lost', job });
    else this.#onEvent({ type: 'queue.error', error: `job ${job.id} (${job.key}): ${errorText(error)}` });
  }

  #live(): Job[] {
    return [...this.#runs.values()].filter((run) => !run.completed).map((run) => run.job);
  }

  async #renew(): Promise<void> {
    const running = this.#live();
    if (running.length === 0) return;
    try {
      const lost = await this.#backend.renew(running);
      for (const job of lost) this.#runs.get(job.id)?.controller.abort(new LeaseLostError(job));
    } catch (error) {
      this.#onEvent({ type: 'queue.error', error: `renewing leases: ${errorText(error)}` });
    }
  }
}
