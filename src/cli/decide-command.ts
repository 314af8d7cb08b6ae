import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { decideTranscript } from '../core/decide-handoff.js';
import { DEFAULT_DECIDER_POLICY, DeciderPolicySchema } from '../core/decider-policy.js';
import { TranscriptItemSchema } from '../core/transcript.js';
import { answerJsonLines } from './jsonl.js';

/** One line of `baton decide --jsonl`: a conversation, with the thresholds to judge it by. */
export const DecideLineSchema = z.object({
  // Domains (and the policies they bring) arrive with the domains issue. Until then any domain
  // name is accepted and ignored, so lines written for later versions still run.
  domain: z.string().optional(),
  policy: DeciderPolicySchema.optional(),
  messages: z.array(TranscriptItemSchema),
});
export type DecideLine = z.infer<typeof DecideLineSchema>;

/** One answer line: exactly these four fields; the signals stay inside the process. */
export interface DecideAnswer {
  handoff: boolean;
  reason: string | null;
  target: string | null;
  evidence: string | null;
}

/** Answers one conversation. */
export function decideLine(line: DecideLine): DecideAnswer {
  const { handoff, reason, target, evidence } = decideTranscript(line.messages, line.policy ?? DEFAULT_DECIDER_POLICY);
  return { handoff, reason, target, evidence };
}

/**
 * `baton decide --jsonl`: one conversation per input line, one decision per output line, in
 * order. A malformed line gets `{"error": "..."}` and the rest go on.
 */
export function runDecide(input: Readable, output: Writable): Promise<{ lines: number; errors: number }> {
  return answerJsonLines(input, output, DecideLineSchema, decideLine);
}
