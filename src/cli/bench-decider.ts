/**
 * `baton bench decider`: hand-off decisions per second, on one core, by the current signal
 * extractor and, in the same run, by the frozen pre-issue-13 lexicon extractor as the baseline
 * (`src/testing/decider-baseline/`, labelled as such). The corpus is mixed: the development parts
 * of the decider corpora (Baton's own and the blind one, never a held-out part), one decision
 * per conversation, each decision the extractor plus `decideHandoff` under the line's policy.
 *
 * The current detector is also timed without its trained classifier (`model: null`), so the
 * classifier's own cost shows in the same run.
 *
 * Both extractors keep per-clause caches, which a benchmark that repeats the same texts would
 * flatter: every pass appends a pass number to each customer message, so no whole message repeats
 * (its earlier clauses do, as they do in production, where the conversation is reread every turn). Each detector is timed over `--rounds` passes after one untimed pass;
 * decisions per second is from the best pass, the per-decision percentiles from all timed ones.
 */
import { readFileSync } from 'node:fs';
import { decideHandoff, extractSignals, type DeciderPolicy, type Signal, type TranscriptItem } from '../core/index.js';
import { extractBaselineSignals } from '../testing/decider-baseline/handoff-signals.js';
import { parseDeciderCorpus } from '../testing/decider-corpus.js';
import { DecideLineSchema } from './decide-command.js';

/** The development parts the benchmark reads; held-out parts are never benchmarked (nor read). */
export const BENCH_CORPORA = ['own-dev.jsonl', 'blind-dev.jsonl'] as const;

export interface DeciderBenchOptions {
  rounds: number;
  progress: (line: string) => void;
}

interface Conversation {
  items: TranscriptItem[];
  policy: DeciderPolicy;
}

type Extract = (items: readonly TranscriptItem[], policy: DeciderPolicy) => Signal[];

function loadConversations(): Conversation[] {
  const out: Conversation[] = [];
  for (const name of BENCH_CORPORA) {
    const url = new URL(`../../data/decider/${name}`, import.meta.url);
    for (const c of parseDeciderCorpus(readFileSync(url, 'utf8'), name)) {
      const line = DecideLineSchema.parse(c.conversation);
      out.push({ items: line.messages, policy: line.policy });
    }
  }
  return out;
}

/** The conversations with every customer message marked with the pass, so no cache carries over. */
const marked = (conversations: readonly Conversation[], pass: number): Conversation[] =>
  conversations.map((c) => ({ ...c, items: c.items.map((i) => (i.role === 'customer' ? { ...i, text: `${i.text} (${pass})` } : i)) }));

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

function timeDetector(extract: Extract, conversations: readonly Conversation[], rounds: number, firstPass: number) {
  const perDecision: number[] = [];
  let best = Infinity;
  let handoffs = 0;
  for (let round = 0; round <= rounds; round++) {
    const input = marked(conversations, firstPass + round);
    const started = performance.now();
    for (const c of input) {
      const t0 = performance.now();
      if (decideHandoff(extract(c.items, c.policy), c.policy).handoff) handoffs += 1;
      if (round > 0) perDecision.push(performance.now() - t0);
    }
    if (round > 0) best = Math.min(best, (performance.now() - started) / 1000);
  }
  perDecision.sort((a, b) => a - b);
  return {
    decisions_per_second: Math.round(conversations.length / best),
    p50_ms: Number(quantile(perDecision, 0.5).toFixed(4)),
    p99_ms: Number(quantile(perDecision, 0.99).toFixed(4)),
    max_ms: Number((perDecision[perDecision.length - 1] ?? 0).toFixed(4)),
    handoffs_per_pass: Math.round(handoffs / (rounds + 1)),
  };
}

/** Runs the benchmark: the baseline first, then the current detector, on the same conversations. */
export function benchDecider(options: DeciderBenchOptions) {
  const conversations = loadConversations();
  options.progress(`decider: ${conversations.length} conversations from ${BENCH_CORPORA.join(', ')}; ${options.rounds} timed passes each`);
  const baseline = timeDetector(extractBaselineSignals, conversations, options.rounds, 0);
  options.progress(`baseline (pre-issue-13 lexicon): ${baseline.decisions_per_second} decisions/s, p99 ${baseline.p99_ms} ms`);
  const lexicon = timeDetector((items, policy) => extractSignals(items, policy, { model: null }), conversations, options.rounds, 500);
  options.progress(`current lexicon alone: ${lexicon.decisions_per_second} decisions/s, p99 ${lexicon.p99_ms} ms`);
  const current = timeDetector(extractSignals, conversations, options.rounds, 1000);
  options.progress(`current: ${current.decisions_per_second} decisions/s, p99 ${current.p99_ms} ms`);
  return {
    bench: 'decider',
    conversations: conversations.length,
    corpora: BENCH_CORPORA,
    rounds: options.rounds,
    node: process.version,
    baseline: { name: 'pre-issue-13 lexicon (src/testing/decider-baseline)', ...baseline },
    lexicon: { name: 'current detector without its trained classifier (model: null)', ...lexicon },
    current: { name: 'current detector (src/core/handoff-signals.ts, lexicon and trained classifier)', ...current },
    cost_ratio: Number((baseline.decisions_per_second / current.decisions_per_second).toFixed(2)),
    classifier_cost_ratio: Number((lexicon.decisions_per_second / current.decisions_per_second).toFixed(2)),
    goal: { max_cost_ratio: 2, max_p99_ms: 1 },
  };
}
