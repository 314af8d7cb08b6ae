/**
 * Scores redaction on labelled corpora: `npx tsx scripts/score-redaction.ts FILE.jsonl...`
 * prints, per file, aggregates only — entries, secrets, secrets surviving in the context packet
 * and in the stored conversation, keep-strings, over-redacted keep-strings, and the same per
 * class. `--show` also prints each failing entry's id and strings: use it on dev files only,
 * never on a holdout.
 */

import { readFileSync } from 'node:fs';
import { RedactionCaseSchema, scoreCorpus } from '../src/core/redact-corpus.js';

const args = process.argv.slice(2);
const show = args.includes('--show');
const files = args.filter((a) => a !== '--show');
if (files.length === 0) {
  console.error('usage: npx tsx scripts/score-redaction.ts [--show] FILE.jsonl...');
  process.exit(2);
}
for (const file of files) {
  const entries = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => RedactionCaseSchema.parse(JSON.parse(line)));
  const { score, results } = scoreCorpus(entries);
  const { byClass, ...totals } = score;
  console.log(JSON.stringify({ file, ...totals }));
  for (const [name, k] of Object.entries(byClass).sort()) console.log(`  ${name.padEnd(14)} ${JSON.stringify(k)}`);
  if (show) {
    for (const r of results) {
      if (r.inPacket.length + r.atRest.length + r.overRedacted.length + r.absentKeep.length === 0) continue;
      console.log(
        JSON.stringify({ id: r.id, inPacket: r.inPacket, atRest: r.atRest, overRedacted: r.overRedacted, absentKeep: r.absentKeep }),
      );
    }
  }
}
