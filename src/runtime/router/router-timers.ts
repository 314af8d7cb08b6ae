/**
 * The router's timers as durable jobs (issue 14, docs/jobs.md): reservation timeouts, target
 * timeouts, queue-age checks and unfinished accepts are fired by `routing.due` jobs on the store's
 * own job queue — a table in the SQLite file, graphile-worker on PostgreSQL.
 *
 * The routing rows stay the truth (ADR 0021): a deadline fires when the sweep finds its row due,
 * and its row's status moves on in the transaction that fires it, so it fires once whichever
 * process runs the job and however many jobs run. The jobs say when to look:
 *
 * - after every routing transition, a job is scheduled at the earliest deadline still to fire
 *   (its key is that time, so jobs scheduled by several processes never replace each other's);
 * - a job that ran schedules the next earliest deadline, so later deadlines follow in a chain;
 * - an accept schedules a look past its claim's grace period (an accept whose process died before
 *   the claim is finished by the sweep);
 * - at start, what came due while no process ran fires at once, and the chain is scheduled again:
 *   a restart loses no timer, even one whose job a dying process never wrote.
 */
import type { Clock } from '../../core/clock.js';
import type { RoutingFact } from '../../store/routing-store.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { ACCEPT_CLAIM_GRACE_MS, type RuntimeRouter } from './runtime-router.js';

/** The job that fires what is due. */
export const ROUTING_DUE_JOB = 'routing.due';

/** How soon a due deadline that another router was firing is looked at again. */
const RETRY_MS = 1000;

/** The router's timers, running on a job queue. */
export interface RouterTimers {
  /** Stops listening to the router and stops this process's job runner (the queue stays open). */
  stop(): Promise<void>;
}

/**
 * Starts the router's timers on `jobs` (which this process also runs), and fires at once what is
 * already due. Call once per process; every process sharing the database may run them.
 */
export async function startRouterTimers(
  router: Pick<RuntimeRouter, 'sweep' | 'nextDeadline' | 'onFacts'>,
  jobs: Pick<JobQueue, 'schedule' | 'start' | 'stop'>,
  options: { clock: Clock; onError: (error: unknown) => void },
): Promise<RouterTimers> {
  const { clock } = options;
  const at = (ms: number) =>
    jobs.schedule({ key: `routing:due:${Math.trunc(ms)}`, name: ROUTING_DUE_JOB, payload: { at: Math.trunc(ms) }, runAt: new Date(ms) });

  // One look for the next deadline at a time; transitions meanwhile ask for one more look after it.
  let looking: Promise<void> | null = null;
  let again = false;
  const scheduleNext = (): Promise<void> => {
    if (looking !== null) {
      again = true;
      return looking;
    }
    looking = (async () => {
      try {
        do {
          again = false;
          const next = await router.nextDeadline();
          // A deadline already past that the sweep just left (another router holds its row) is looked at again in a second.
          if (next !== null) await at(next > clock.now() ? next : clock.now() + RETRY_MS);
        } while (again);
      } finally {
        looking = null;
      }
    })();
    return looking;
  };

  const unsubscribe = router.onFacts((facts: readonly RoutingFact[]) => {
    const accepted = facts.some((f) => f.kind === 'accepted');
    void (async () => {
      if (accepted) await at(clock.now() + ACCEPT_CLAIM_GRACE_MS + 1);
      await scheduleNext();
    })().catch(options.onError);
  });

  await jobs.start({
    [ROUTING_DUE_JOB]: async () => {
      // Idempotent by the rows: a job whose deadline was met (an offer accepted in time) fires nothing.
      await router.sweep();
      await scheduleNext();
    },
  });
  // What came due while no process ran, then the chain, and a look past any accept's grace.
  await router.sweep();
  await scheduleNext();
  await at(clock.now() + ACCEPT_CLAIM_GRACE_MS + 1);

  return {
    async stop() {
      unsubscribe();
      await jobs.stop();
      await looking;
    },
  };
}
