import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, Registry } from 'prom-client';

import {
  roleAtLeast,
  runtimeMetrics,
  waitMetrics,
  type MetricsWindow,
  type RuntimeMetrics,
  type StoredEvent,
  type WaitFigures,
} from '../core/index.js';
import type { Store } from '../store/store.js';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { mayWork, type StaffedQueue } from './staff-routes.js';
import { sameHash, tokenHash } from './auth/secrets.js';
import { HttpError } from './http-errors.js';
import { parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';
import { MetricsQuerySchema } from './staff-schemas.js';

/** Default window of the metrics: the last 24 hours. */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Every conversation's log (the metrics read the log and nothing else). */
async function allLogs(store: Store): Promise<StoredEvent[][]> {
  const ids = await store.listConversationIds();
  return Promise.all(ids.map((id) => store.listEvents(id)));
}

/**
 * `GET /v1/metrics` (supervisors and admins; JSON over a window) and `GET /metrics` (Prometheus
 * text, from prom-client). The scrape needs `Authorization: Bearer <metrics token>`; with no token
 * configured it is refused.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  input: { store: Store; auth: CallerDeps; metricsToken: string | null; queues?: readonly StaffedQueue[] },
): void {
  const { store, auth } = input;
  const compute = async (
    window: MetricsWindow,
    only?: (log: readonly StoredEvent[]) => boolean,
  ): Promise<RuntimeMetrics & { waits: WaitFigures }> => {
    const logs = only ? (await allLogs(store)).filter(only) : await allLogs(store);
    return { ...runtimeMetrics(logs, window), waits: waitMetrics(logs, window, auth.clock.now()) };
  };
  const queues = new Map((input.queues ?? []).map((q) => [q.id as string, q]));

  app.get(
    '/v1/metrics',
    routeDocs(
      'Runtime hand-off metrics over a window (default: the last 24 hours): every queue for supervisors, an agent their own queues',
      'staff',
      { querystring: MetricsQuerySchema },
    ),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const q = parseInput(MetricsQuerySchema, request.query, 'query');
      const until = q.until ? new Date(q.until).toISOString() : new Date(auth.clock.now() + 1).toISOString();
      const since = q.since ? new Date(q.since).toISOString() : new Date(Date.parse(until) - DAY_MS).toISOString();
      if (since >= until) throw new HttpError(400, 'invalid_request', 'query.since must be before query.until');
      if (roleAtLeast(staff.role, 'supervisor')) return { scope: 'all', queues: [...queues.keys()], ...(await compute({ since, until })) };
      // An agent sees the conversations that waited in the queues they work, and nothing else.
      const own = [...queues.values()].filter((queue) => mayWork(staff, queue)).map((queue) => queue.id as string);
      const inOwnQueue = (log: readonly StoredEvent[]) => log.some((e) => e.type === 'conversation.queued' && own.includes(e.data.queue));
      const figures = await compute({ since, until }, inOwnQueue);
      return {
        scope: 'own_queues',
        queues: own,
        ...figures,
        byAgent: {},
        byQueue: Object.fromEntries(Object.entries(figures.byQueue).filter(([queue]) => own.includes(queue))),
      };
    },
  );

  const registry = new Registry();
  let latest: (RuntimeMetrics & { waits: WaitFigures }) | null = null;
  const gauge = (name: string, help: string, labelNames: string[], read: (m: RuntimeMetrics & { waits: WaitFigures }, g: Gauge) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        if (latest) read(latest, this);
      },
    });
  gauge('baton_conversations_served', 'Conversations the agent served in the last 24 hours', [], (m, g) => g.set(m.conversationsServed));
  gauge('baton_handoffs', 'Hand-offs towards humans in the last 24 hours, by reason', ['reason'], (m, g) => {
    for (const [reason, r] of Object.entries(m.handoffRateByReason)) g.set({ reason }, r.handoffs);
  });
  gauge('baton_handoff_rate', 'Conversations handed off with a reason ÷ conversations served, last 24 hours', ['reason'], (m, g) => {
    for (const [reason, r] of Object.entries(m.handoffRateByReason)) if (r.rate !== null) g.set({ reason }, r.rate);
  });
  gauge('baton_time_to_human_seconds', 'From hand-off to the first human message, last 24 hours', ['quantile'], (m, g) => {
    if (m.timeToHumanMs.p50 !== null) g.set({ quantile: '0.5' }, m.timeToHumanMs.p50 / 1000);
    if (m.timeToHumanMs.p95 !== null) g.set({ quantile: '0.95' }, m.timeToHumanMs.p95 / 1000);
  });
  gauge('baton_handoffs_unanswered', 'Hand-offs no human has answered yet, last 24 hours', [], (m, g) => g.set(m.timeToHumanMs.unanswered));
  for (const [name, help, pick] of [
    ['baton_reask_rate', 'Human questions the packet already answered ÷ human questions', (m: RuntimeMetrics) => m.reAsk.rate],
    [
      'baton_resolution_after_handoff_rate',
      'Hand-offs closed without a further hand-off ÷ hand-offs',
      (m: RuntimeMetrics) => m.resolutionAfterHandoff.rate,
    ],
    [
      'baton_bounce_rate',
      'Conversations handed to a human more than once ÷ conversations handed off',
      (m: RuntimeMetrics) => m.bounce.rate,
    ],
  ] as const) {
    gauge(name, `${help}, last 24 hours`, [], (m, g) => {
      const value = pick(m);
      if (value !== null) g.set(value);
    });
  }
  gauge('baton_suppressed_messages', 'Replies suppressed because their sender lost ownership, last 24 hours', [], (m, g) =>
    g.set(m.suppressedMessages),
  );

  gauge(
    'baton_wait_estimate_abs_error_seconds',
    'Told wait estimate minus the actual wait, absolute, last 24 hours',
    ['quantile'],
    (m, g) => {
      const e = m.waits.absoluteErrorMs;
      if (e.p50 !== null) g.set({ quantile: '0.5' }, e.p50 / 1000);
      if (e.p90 !== null) g.set({ quantile: '0.9' }, e.p90 / 1000);
    },
  );
  gauge('baton_wait_bound_coverage', 'Waits within the stated bound ÷ waits told an estimate, last 24 hours', [], (m, g) => {
    if (m.waits.boundCoverage.rate !== null) g.set(m.waits.boundCoverage.rate);
  });
  gauge('baton_promise_kept_rate', 'A person joined within the promised time ÷ promises with an outcome, last 24 hours', [], (m, g) => {
    if (m.waits.promiseKept.rate !== null) g.set(m.waits.promiseKept.rate);
  });
  gauge('baton_queue_oldest_wait_seconds', 'The longest a conversation now waiting has waited, by queue', ['queue'], (m, g) => {
    for (const [queue, ms] of Object.entries(m.waits.oldestWaitingMs)) g.set({ queue }, ms / 1000);
  });
  gauge('baton_queue_age_alerts', 'Queue-age alerts raised in the last 24 hours, by queue', ['queue'], (m, g) => {
    for (const [queue, n] of Object.entries(m.waits.ageAlerts)) g.set({ queue }, n);
  });

  // A scrape proves itself with the metrics token. Without one configured nobody may scrape: a
  // loopback address proves nothing behind a reverse proxy on the same machine.
  const allowedScrape = (request: FastifyRequest, token: string): boolean => {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameHash(tokenHash(header.slice(7)), tokenHash(token));
  };
  app.get('/metrics', routeDocs('Prometheus text format (with the metrics token)', 'scraper'), async (request, reply) => {
    const token = input.metricsToken;
    if (token === null) throw new HttpError(403, 'forbidden', 'set BATON_METRICS_TOKEN and scrape with "Authorization: Bearer <it>"');
    if (!allowedScrape(request, token)) throw new HttpError(401, 'unauthenticated', 'send "Authorization: Bearer <metrics token>"');
    const until = new Date(auth.clock.now() + 1).toISOString();
    latest = await compute({ since: new Date(Date.parse(until) - DAY_MS).toISOString(), until });
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
