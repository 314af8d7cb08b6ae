import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, Registry } from 'prom-client';

import {
  REVIEW_FIGURES,
  reviewMetrics,
  roleAtLeast,
  runtimeMetrics,
  waitMetrics,
  type MetricsWindow,
  type ReviewFigures,
  type ReviewMetrics,
  type ReviewUnit,
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
import { DAY_MS, metricsWindow } from './metrics-window.js';

/** What the metrics route computes: the runtime's figures, the waits, and the production review estimates. */
type Figures = RuntimeMetrics & { waits: WaitFigures; reviews: ReviewMetrics };

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
    only?: { log: (log: readonly StoredEvent[]) => boolean; unit: (unit: ReviewUnit) => boolean },
  ): Promise<Figures> => {
    const logs = only ? (await allLogs(store)).filter(only.log) : await allLogs(store);
    return {
      ...runtimeMetrics(logs, window),
      waits: waitMetrics(logs, window, auth.clock.now()),
      reviews: reviewMetrics(logs, window, only ? { keep: only.unit } : {}),
    };
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
      const { since, until } = metricsWindow(q, auth.clock);
      if (roleAtLeast(staff.role, 'supervisor')) return { scope: 'all', queues: [...queues.keys()], ...(await compute({ since, until })) };
      // An agent sees the conversations that waited in the queues they work, and nothing else.
      const own = [...queues.values()].filter((queue) => mayWork(staff, queue)).map((queue) => queue.id as string);
      const inOwnQueue = (log: readonly StoredEvent[]) => log.some((e) => e.type === 'conversation.queued' && own.includes(e.data.queue));
      // Their review estimates cover the hand-offs that waited in those queues (kept conversations are in none).
      const ownUnit = (unit: ReviewUnit) => unit.subject === 'handoff' && own.includes(unit.queue);
      const figures = await compute({ since, until }, { log: inOwnQueue, unit: ownUnit });
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
  let latest: Figures | null = null;
  const gauge = (name: string, help: string, labelNames: string[], read: (m: Figures, g: Gauge) => void) =>
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

  // Production review estimates (docs/reviews.md): one series per figure and slice, with its bounds and sample size.
  const slices = (r: ReviewMetrics): Array<[scope: string, key: string, figures: ReviewFigures]> => [
    ['overall', '', r.overall],
    ...Object.entries(r.byReason).map(([key, f]): [string, string, ReviewFigures] => ['reason', key, f]),
    ...Object.entries(r.byQueue).map(([key, f]): [string, string, ReviewFigures] => ['queue', key, f]),
  ];
  for (const [name, help, pick] of [
    ['baton_review_estimate', 'Post-stratified estimate from staff verdicts', (e: { value: number | null }) => e.value],
    [
      'baton_review_estimate_lower',
      'Lower bound of the 95% stratified bootstrap interval',
      (e: { ci: [number, number] | null }) => e.ci?.[0] ?? null,
    ],
    [
      'baton_review_estimate_upper',
      'Upper bound of the 95% stratified bootstrap interval',
      (e: { ci: [number, number] | null }) => e.ci?.[1] ?? null,
    ],
    ['baton_review_sample_size', "Verdicts under the estimate's denominator", (e: { n: number }) => e.n],
  ] as const) {
    gauge(
      name,
      `${help} (figure: precision, recall, overEscalation, timing, packetEnough), last 24 hours`,
      ['figure', 'scope', 'key'],
      (m, g) => {
        for (const [scope, key, figures] of slices(m.reviews))
          for (const figure of REVIEW_FIGURES) {
            const e = figures[figure];
            const value = e === null ? null : pick(e);
            if (value !== null) g.set({ figure, scope, key }, value);
          }
      },
    );
  }
  gauge('baton_review_stratum_population', 'Units of each review stratum in the last 24 hours', ['stratum'], (m, g) => {
    for (const s of m.reviews.weighting.strata) g.set({ stratum: s.stratum }, s.population);
  });
  gauge('baton_review_stratum_reviewed', 'Units of each review stratum with a verdict, last 24 hours', ['stratum'], (m, g) => {
    for (const s of m.reviews.weighting.strata) g.set({ stratum: s.stratum }, s.reviewed);
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
