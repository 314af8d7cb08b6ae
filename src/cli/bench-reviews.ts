/**
 * `baton bench reviews`: what the production review estimates (docs/reviews.md) add to a
 * `GET /v1/metrics` or a scrape. Synthetic logs of a window — conversations kept by the agent and
 * conversations handed to one of three queues for one of four reasons, some with a verdict — are
 * built once and checked against the event schema; then `reviewMetrics` (the stratified
 * bootstrap over every figure and slice) is timed against the same-run baseline `runtimeMetrics`
 * (what the route computed before), each the best of `--rounds` passes after an untimed one.
 */
import { reviewMetrics, runtimeMetrics, seededRandom, StoredEventSchema, type MetricsWindow, type StoredEvent } from '../core/index.js';

export interface ReviewsBenchOptions {
  conversations: number;
  /** Share of conversations handed to a person. */
  handoffShare: number;
  /** Share of units with a verdict. */
  reviewedShare: number;
  rounds: number;
  progress: (line: string) => void;
}

const REASONS = ['customer_request', 'policy_topic', 'safety', 'value_threshold'];
const QUEUES = ['queue_billing', 'queue_disputes', 'queue_general'];
const WINDOW: MetricsWindow = { since: '2026-12-01T00:00:00.000Z', until: '2026-12-02T00:00:00.000Z' };

/** One conversation's log: a message, the agent's turn, perhaps a hand-off and a claim, perhaps a verdict. */
function syntheticLog(i: number, random: ReturnType<typeof seededRandom>, options: ReviewsBenchOptions): StoredEvent[] {
  const conversationId = `conv_bench${i}`;
  const at = new Date(Date.parse(WINDOW.since) + i * 1000).toISOString();
  const events: Array<Record<string, unknown>> = [];
  const push = (type: string, data: Record<string, unknown>) =>
    events.push({ schemaVersion: 1, id: `evt_bench${i}_${events.length}`, conversationId, at, type, data, seq: events.length + 1 });
  const agent = { type: 'agent', id: 'agent_support' };
  push('message.received', {
    message: {
      schemaVersion: 1,
      id: `msg_bench${i}`,
      conversationId,
      direction: 'inbound',
      sender: { type: 'customer' },
      text: 'hello',
      idempotencyKey: `k${i}`,
      at,
    },
  });
  push('turn.completed', { agent: 'agent_support', outcome: 'reply', modelCalls: 1, tokens: 1, wallMs: 1 });
  const reviewed = random.next() < options.reviewedShare;
  const needed = random.next() < 0.5;
  if (random.next() < options.handoffShare) {
    const queue = random.pick(QUEUES);
    push('handoff.requested', {
      version: 2,
      state: 'HANDOFF_PENDING',
      owner: { type: 'queue', id: queue },
      from: { state: 'AGENT_ACTIVE', owner: agent },
      route: 'queue',
      reason: random.pick(REASONS),
      summary: null,
    });
    const handoff = events.length;
    push('conversation.claimed', {
      version: 3,
      state: 'HUMAN_ACTIVE',
      owner: { type: 'human', id: 'staff_ana' },
      from: { state: 'HANDOFF_PENDING', owner: { type: 'queue', id: queue } },
      staff: 'staff_ana',
    });
    if (reviewed)
      push('review.recorded', {
        subject: 'handoff',
        by: 'staff_ana',
        as: 'owner',
        needed,
        dueAt: null,
        reason: null,
        note: null,
        handoff,
        timing: needed ? random.pick(['on_time', 'late']) : null,
        packetEnough: random.next() < 0.8,
        askedAgain: null,
      });
  } else if (reviewed)
    push('review.recorded', {
      subject: 'kept',
      by: 'staff_sue',
      as: 'supervisor',
      needed,
      dueAt: needed ? 1 : null,
      reason: needed ? random.pick(REASONS) : null,
      note: null,
    });
  return events.map((e) => StoredEventSchema.parse(e) as StoredEvent);
}

/** The best of `rounds` timed passes (seconds), after one untimed pass. */
function best(rounds: number, pass: () => unknown): number {
  pass();
  let fastest = Infinity;
  for (let r = 0; r < rounds; r += 1) {
    const started = performance.now();
    pass();
    fastest = Math.min(fastest, (performance.now() - started) / 1000);
  }
  return fastest;
}

export function benchReviews(options: ReviewsBenchOptions) {
  const random = seededRandom(1);
  options.progress(`building ${options.conversations} logs…`);
  const logs = Array.from({ length: options.conversations }, (_, i) => syntheticLog(i, random, options));
  const figures = reviewMetrics(logs, WINDOW);
  const verdicts = figures.weighting.strata.reduce((n, s) => n + s.reviewed, 0);
  options.progress(`timing over ${figures.weighting.population} units, ${verdicts} verdicts in ${figures.weighting.strata.length} strata…`);
  const baseline = best(options.rounds, () => runtimeMetrics(logs, WINDOW));
  const reviews = best(options.rounds, () => reviewMetrics(logs, WINDOW));
  const ms = (s: number) => Number((s * 1000).toFixed(1));
  return {
    benchmark: 'reviews',
    conversations: options.conversations,
    units: figures.weighting.population,
    verdicts,
    strata: figures.weighting.strata.length,
    resamples: figures.interval.resamples,
    runtime_metrics_ms: ms(baseline),
    review_metrics_ms: ms(reviews),
    ratio: Number((reviews / baseline).toFixed(2)),
  };
}
