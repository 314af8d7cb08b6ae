import { z } from 'zod';
import { DeciderReasonSchema } from './transcript.js';

/**
 * Something the agent can do, for `no_capability`: a customer request that names none of the
 * keywords of any capability is out of scope. Keywords match at the start of a word, so
 * `refund` also covers "refunds" and "refunded".
 */
export const CapabilitySchema = z.strictObject({
  intent: z.string().min(1),
  keywords: z.array(z.string().min(1)).default([]),
});
export type Capability = z.infer<typeof CapabilitySchema>;

const DeciderPolicyObject = z.strictObject({
  /** A write whose amount argument is strictly greater than this hands off; `null`: no limit. */
  autonomousLimit: z.number().nonnegative().nullable().default(null),
  /** The argument of a write tool call that carries its amount. */
  amountArgument: z.string().min(1).default('amount'),
  /**
   * Tools that write. Only their amount counts for `value_threshold`; empty means a tool whose
   * name does not start with a read verb (`get_`, `find_`, `calculate_`, … see `tool-kind.ts`).
   */
  writeTools: z.array(z.string().min(1)).default([]),
  /**
   * Tools that only read. With both lists given (a domain's policy), a tool in neither — one the
   * domain does not have — is judged by its name, as when no list is given; with only
   * `writeTools`, that list is the whole truth.
   */
  readTools: z.array(z.string().min(1)).default([]),
  /** Consecutive failed tool calls that hand off; a successful call starts the count again. */
  toolFailureLimit: z.number().int().positive().default(3),
  /** How many times the customer states the same intent before `loop_detected`. */
  loopLimit: z.number().int().min(2).default(3),
  /**
   * How many statements of the same intent, with frustration shown at or after the last of
   * them, make `frustration_and_loop`. Frustration alone never hands off.
   */
  frustrationLoopLimit: z.number().int().min(2).default(2),
  /** Tools the agent may not use: calling one means the agent cannot do what was asked. */
  disabledTools: z.array(z.string().min(1)).default([]),
  /** What the agent can do. Empty means unknown: `no_capability` then comes only from tools. */
  capabilities: z.array(CapabilitySchema).default([]),
  /** The queue each reason hands off to; reasons not listed go to `defaultTarget`. */
  targets: z.partialRecord(DeciderReasonSchema, z.string().min(1)).default({}),
  defaultTarget: z.string().min(1).default('queue_general'),
  /** The queue for each reserved topic (`policy_topic`), before `targets.policy_topic`. */
  topicTargets: z.partialRecord(z.enum(['complaint', 'bereavement', 'legal']), z.string().min(1)).default({}),
});

/** `autonomous_limit` → `autonomousLimit`: JSON written by hand or by Python tends to be snake_case. */
function camelCaseKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
}

/**
 * The thresholds and facts the decider needs from a domain's policy. Every field has a
 * default, so `{}` parses; unknown fields are refused, so a typo fails loudly instead of
 * silently leaving a threshold at its default. Keys may be written in snake_case.
 */
export const DeciderPolicySchema = z.preprocess(camelCaseKeys, DeciderPolicyObject);
export type DeciderPolicy = z.infer<typeof DeciderPolicyObject>;
/** A decider policy as written, before defaults are filled in. */
export type DeciderPolicyInput = z.input<typeof DeciderPolicyObject>;

/** The policy with every default: no autonomous limit, no capabilities listed, one queue. */
export const DEFAULT_DECIDER_POLICY: DeciderPolicy = DeciderPolicyObject.parse({});
