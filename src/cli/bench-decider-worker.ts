/**
 * One detector of `baton bench decider`, timed on a worker thread of its own: a fresh V8 isolate,
 * so it inherits no other detector's caches, heap or compiled code. (Timed one after the other in
 * one thread, whichever detector ran second ran 2–4× slower than it does alone: BENCHMARKS.md
 * §Decider.) The thread loads the corpus, decides every conversation over `rounds` passes after
 * one untimed pass, and posts its timings.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { decideHandoff, extractSignals, type DeciderPolicy, type Signal, type TranscriptItem } from '../core/index.js';
import { extractBaselineSignals } from '../testing/decider-baseline/handoff-signals.js';
import { parseDeciderCorpus } from '../testing/decider-corpus.js';
import { DecideLineSchema } from './decide-command.js';

/** The development parts the benchmark reads; held-out parts are never benchmarked (nor read). */
export const BENCH_CORPORA = ['own-dev.jsonl', 'blind-dev.jsonl'] as const;

/** Which detector a thread times: the frozen pre-issue-13 lexicon, the current one without its classifier, or with it. */
export type DetectorName = 'baseline' | 'lexicon' | 'current';

export interface DetectorJob {
  detector: DetectorName;
  rounds: number;
  /** The number the first pass appends to each customer message (see `marked`). */
  firstPass: number;
}

export interface DetectorTiming {
  conversations: number;
  decisions_per_second: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  handoffs_per_pass: number;
}

interface Conversation {
  items: TranscriptItem[];
  policy: DeciderPolicy;
}

type Extract = (items: readonly TranscriptItem[], policy: DeciderPolicy) => Signal[];

const EXTRACTORS: Record<DetectorName, Extract> = {
  baseline: extractBaselineSignals,
  lexicon: (items, policy) => extractSignals(items, policy, { model: null }),
  current: extractSignals,
};

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

/** Times one detector over the corpus: decisions per second from the best pass, percentiles over every timed decision. */
export function timeDetector(job: DetectorJob): DetectorTiming {
  const extract = EXTRACTORS[job.detector];
  const conversations = loadConversations();
  const perDecision: number[] = [];
  let best = Infinity;
  let handoffs = 0;
  for (let round = 0; round <= job.rounds; round++) {
    const input = marked(conversations, job.firstPass + round);
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
    conversations: conversations.length,
    decisions_per_second: Math.round(conversations.length / best),
    p50_ms: Number(quantile(perDecision, 0.5).toFixed(4)),
    p99_ms: Number(quantile(perDecision, 0.99).toFixed(4)),
    max_ms: Number((perDecision[perDecision.length - 1] ?? 0).toFixed(4)),
    handoffs_per_pass: Math.round(handoffs / (job.rounds + 1)),
  };
}

if (parentPort && (workerData as { benchDecider?: DetectorJob } | null)?.benchDecider) {
  parentPort.postMessage(timeDetector((workerData as { benchDecider: DetectorJob }).benchDecider));
}
