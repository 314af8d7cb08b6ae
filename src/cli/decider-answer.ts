import { decideHandoff, extractSignals, type Signal, type TranscriptItem, type DeciderPolicy } from '../core/index.js';
import { extractBaselineSignals } from '../testing/decider-baseline/handoff-signals.js';
import type { DeciderAnswer, DeciderCase } from '../testing/decider-corpus.js';
import { DecideLineSchema } from './decide-command.js';

/** A signal extractor under test: today's detector, or the frozen pre-issue-13 baseline. */
export type DetectorName = 'current' | 'baseline';

const EXTRACTORS: Record<DetectorName, (items: readonly TranscriptItem[], policy: DeciderPolicy) => Signal[]> = {
  current: extractSignals,
  baseline: extractBaselineSignals,
};

/**
 * Answers a corpus case the way `baton decide --jsonl` answers its line (the domain's policy
 * under the line's own), with the chosen extractor.
 */
export function answerCase(c: DeciderCase, detector: DetectorName = 'current'): DeciderAnswer {
  const line = DecideLineSchema.safeParse(c.conversation);
  if (!line.success) return { error: line.error.message };
  const { handoff, reason } = decideHandoff(EXTRACTORS[detector](line.data.messages, line.data.policy), line.data.policy);
  return { handoff, reason };
}
