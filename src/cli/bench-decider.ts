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
 * (its earlier clauses do, as they do in production, where the conversation is reread every turn).
 * Each detector runs on a fresh worker thread of its own, one after the other (see
 * `bench-decider-worker.ts`), over `--rounds` passes after one untimed pass; decisions per second
 * is from the best pass, the per-decision percentiles from all timed ones.
 */
import { Worker } from 'node:worker_threads';
import { BENCH_CORPORA, type DetectorJob, type DetectorName, type DetectorTiming } from './bench-decider-worker.js';

export { BENCH_CORPORA };

export interface DeciderBenchOptions {
  rounds: number;
  progress: (line: string) => void;
}

/** Times one detector on a worker thread of its own. */
function inWorker(detector: DetectorName, rounds: number, firstPass: number): Promise<DetectorTiming> {
  const job: DetectorJob = { detector, rounds, firstPass };
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./bench-decider-worker.js', import.meta.url), { workerData: { benchDecider: job } });
    worker.once('message', (timing: DetectorTiming) => resolve(timing));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${detector} detector's thread exited with code ${code}`));
    });
  });
}

/** Runs the benchmark: the baseline first, then the current detector without and with its classifier, each on its own thread. */
export async function benchDecider(options: DeciderBenchOptions) {
  options.progress(`decider: ${BENCH_CORPORA.join(', ')}; ${options.rounds} timed passes each, each detector on a thread of its own`);
  const { conversations, ...baseline } = await inWorker('baseline', options.rounds, 0);
  options.progress(`baseline (pre-issue-13 lexicon): ${baseline.decisions_per_second} decisions/s, p99 ${baseline.p99_ms} ms`);
  const { conversations: _l, ...lexicon } = await inWorker('lexicon', options.rounds, 500);
  options.progress(`current lexicon alone: ${lexicon.decisions_per_second} decisions/s, p99 ${lexicon.p99_ms} ms`);
  const { conversations: _c, ...current } = await inWorker('current', options.rounds, 1000);
  options.progress(`current: ${current.decisions_per_second} decisions/s, p99 ${current.p99_ms} ms`);
  return {
    bench: 'decider',
    conversations,
    corpora: BENCH_CORPORA,
    rounds: options.rounds,
    node: process.version,
    isolation: 'each detector on a fresh worker thread, one after the other',
    baseline: { name: 'pre-issue-13 lexicon (src/testing/decider-baseline)', ...baseline },
    lexicon: { name: 'current detector without its trained classifier (model: null)', ...lexicon },
    current: { name: 'current detector (src/core/handoff-signals.ts, lexicon and trained classifier)', ...current },
    cost_ratio: Number((baseline.decisions_per_second / current.decisions_per_second).toFixed(2)),
    classifier_cost_ratio: Number((lexicon.decisions_per_second / current.decisions_per_second).toFixed(2)),
    goal: { max_cost_ratio: 2, max_p99_ms: 1 },
  };
}
