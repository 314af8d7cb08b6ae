/**
 * Scores the hand-off decider on corpus files and prints aggregate figures only: recall, safety
 * recall, false-positive rate, right-reason rate and the confusion by category.
 *
 *   npx tsx scripts/score-decider.ts data/decider/own-dev.jsonl data/decider/blind-dev.jsonl
 *   npx tsx scripts/score-decider.ts --baseline FILE...   # the frozen pre-issue-13 extractor
 *   npx tsx scripts/score-decider.ts --misses FILE...     # also list the wrong cases (dev files only)
 *   npx tsx scripts/score-decider.ts --json FILE...
 *
 * `--misses` is refused for a file whose name says `holdout`: a held-out part is scored once,
 * by its figures, and its text is never shown.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { answerCase, type DetectorName } from '../src/cli/decider-answer.js';
import { formatDeciderScore, parseDeciderCorpus, scoreDecider } from '../src/testing/decider-corpus.js';

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('--'));
const detector: DetectorName = args.includes('--baseline') ? 'baseline' : 'current';
const misses = args.includes('--misses');
const json = args.includes('--json');
if (files.length === 0) throw new Error('usage: score-decider.ts [--baseline] [--misses] [--json] FILE.jsonl...');

const results: Record<string, unknown> = {};
for (const file of files) {
  const name = basename(file);
  if (misses && /holdout/i.test(name)) throw new Error(`${name}: --misses is refused on a held-out part; score it by its figures only`);
  const cases = parseDeciderCorpus(readFileSync(file, 'utf8'), name);
  const score = scoreDecider(cases, (c) => answerCase(c, detector));
  results[name] = score;
  if (!json) process.stdout.write(`${formatDeciderScore(`${name} [${detector}]`, score)}\n`);
  if (misses) {
    for (const c of cases) {
      const got = answerCase(c, detector);
      const ok = 'error' in got ? false : got.handoff === c.expect.handoff && (!got.handoff || got.reason === c.expect.reason);
      if (!ok)
        process.stdout.write(
          `MISS ${c.id} [${c.category}] want ${c.expect.reason ?? 'none'} got ${JSON.stringify(got)}\n  ${JSON.stringify(c.conversation)}\n`,
        );
    }
  }
}
if (json) process.stdout.write(`${JSON.stringify(results)}\n`);
