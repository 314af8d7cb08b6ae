/**
 * Labelled conversations for the hand-off decider, and how a detector is scored on them: recall
 * (overall and on safety alone), false-positive rate, right-reason rate, and the confusion by
 * category. The corpus files are data (`data/decider/*.jsonl`); each line is one case.
 */
import { z } from 'zod';
import { DeciderReasonSchema } from '../core/index.js';

/** One labelled case: a `baton decide --jsonl` line with the decision it must get. */
export const DeciderCaseSchema = z.object({
  id: z.string().min(1),
  category: z.string().min(1),
  expect: z.object({ handoff: z.boolean(), reason: DeciderReasonSchema.nullable() }),
  conversation: z.record(z.string(), z.unknown()),
});
export type DeciderCase = z.infer<typeof DeciderCaseSchema>;

/** Parses a corpus file, one case per non-blank line; a bad line fails with its number. */
export function parseDeciderCorpus(text: string, name = 'corpus'): DeciderCase[] {
  return text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const parsed = DeciderCaseSchema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`${name} line ${i + 1}: ${z.prettifyError(parsed.error)}`);
    return [parsed.data];
  });
}

/** What a detector answered for a case (as `baton decide` does), or an error for a line it refused. */
export type DeciderAnswer = { handoff: boolean; reason: string | null } | { error: string };

/** The counts of one category. */
export interface CategoryScore {
  cases: number;
  positives: number;
  caught: number;
  rightReason: number;
  negatives: number;
  falsePositives: number;
  errors: number;
}

/** Aggregate figures only: nothing here quotes a case, so scoring a held-out part reveals no text. */
export interface DeciderScore {
  cases: number;
  positives: number;
  negatives: number;
  recall: number;
  safetyPositives: number;
  safetyRecall: number;
  falsePositiveRate: number;
  /** Of the hand-offs made on positives, the share with the labelled reason. */
  rightReason: number;
  errors: number;
  byCategory: Record<string, CategoryScore>;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

/** Scores `answer` on every case. Safety recall counts the cases labelled `safety`. */
export function scoreDecider(cases: readonly DeciderCase[], answer: (c: DeciderCase) => DeciderAnswer): DeciderScore {
  const byCategory: Record<string, CategoryScore> = {};
  let positives = 0;
  let caught = 0;
  let right = 0;
  let negatives = 0;
  let falsePositives = 0;
  let safety = 0;
  let safetyCaught = 0;
  let errors = 0;
  for (const c of cases) {
    const got = answer(c);
    const cat = (byCategory[c.category] ??= {
      cases: 0,
      positives: 0,
      caught: 0,
      rightReason: 0,
      negatives: 0,
      falsePositives: 0,
      errors: 0,
    });
    cat.cases += 1;
    const error = 'error' in got;
    if (error) {
      errors += 1;
      cat.errors += 1;
    }
    const handoff = !error && got.handoff;
    if (c.expect.handoff) {
      positives += 1;
      cat.positives += 1;
      if (c.expect.reason === 'safety') safety += 1;
      if (handoff) {
        caught += 1;
        cat.caught += 1;
        if (c.expect.reason === 'safety') safetyCaught += 1;
        if (c.expect.reason === null || got.reason === c.expect.reason) {
          right += 1;
          cat.rightReason += 1;
        }
      }
    } else {
      negatives += 1;
      cat.negatives += 1;
      if (handoff) {
        falsePositives += 1;
        cat.falsePositives += 1;
      }
    }
  }
  return {
    cases: cases.length,
    positives,
    negatives,
    recall: ratio(caught, positives),
    safetyPositives: safety,
    safetyRecall: ratio(safetyCaught, safety),
    falsePositiveRate: negatives === 0 ? 0 : falsePositives / negatives,
    rightReason: ratio(right, caught),
    errors,
    byCategory,
  };
}

/** The score as a few lines of text: the headline figures, then one row per category. */
export function formatDeciderScore(name: string, s: DeciderScore): string {
  const pct = (x: number) => x.toFixed(3);
  const head =
    `${name}: ${s.cases} cases (${s.positives} hand-off, ${s.negatives} not); recall ${pct(s.recall)}, ` +
    `safety recall ${pct(s.safetyRecall)} (${s.safetyPositives}), FPR ${pct(s.falsePositiveRate)}, right reason ${pct(s.rightReason)}` +
    (s.errors > 0 ? `, ${s.errors} errors` : '');
  const rows = Object.entries(s.byCategory)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cat, c]) =>
      c.positives > 0
        ? `  ${cat}: caught ${c.caught}/${c.positives}, right reason ${c.rightReason}/${c.caught}` +
          (c.negatives > 0 ? `; false positives ${c.falsePositives}/${c.negatives}` : '')
        : `  ${cat}: false positives ${c.falsePositives}/${c.negatives}`,
    );
  return [head, ...rows].join('\n');
}
