import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import { decideTranscript } from '../core/decide-handoff.js';
import { DEFAULT_DECIDER_POLICY, DeciderPolicySchema, type DeciderPolicy } from '../core/decider-policy.js';
import { TranscriptItemSchema } from '../core/transcript.js';
import { domainDeciderPolicy, isDomainName } from '../domains/decider-policies.js';
import { DOMAIN_NAMES } from '../domains/domain.js';
import { answerJsonLines } from './jsonl.js';

/**
 * One line of `baton decide --jsonl`: a conversation, with the domain whose decider policy
 * applies and any thresholds that override it. The line's `policy` is laid over the domain's
 * (field by field), so `{"domain": "billing"}` alone gets billing's autonomous limit, write tools
 * and queues; without a domain the defaults apply. An unknown domain is refused.
 */
export const DecideLineSchema = z
  .object({
    domain: z
      .string()
      .refine(isDomainName, { error: (issue) => `unknown domain ${JSON.stringify(issue.input)} (known: ${DOMAIN_NAMES.join(', ')})` })
      .optional(),
    policy: z.record(z.string(), z.unknown()).optional(),
    messages: z.array(TranscriptItemSchema),
  })
  .transform((line, ctx) => {
    const base: DeciderPolicy =
      line.domain !== undefined && isDomainName(line.domain) ? domainDeciderPolicy(line.domain) : DEFAULT_DECIDER_POLICY;
    if (line.policy === undefined) return { messages: line.messages, policy: base };
    // The line's keys come after the domain's, so they win, whichever case they are written in.
    const parsed = DeciderPolicySchema.safeParse({ ...base, ...line.policy });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: ['policy', ...issue.path] });
      return z.NEVER;
    }
    return { messages: line.messages, policy: parsed.data };
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
  const { handoff, reason, target, evidence } = decideTranscript(line.messages, line.policy);
  return { handoff, reason, target, evidence };
}

/**
 * `baton decide --jsonl`: one conversation per input line, one decision per output line, in
 * order. A malformed or blank line gets `{"error": "..."}` and the rest go on.
 */
export function runDecide(input: Readable, output: Writable): Promise<{ lines: number; errors: number }> {
  return answerJsonLines(input, output, DecideLineSchema, decideLine);
}
