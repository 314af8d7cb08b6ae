import { z } from 'zod';
import { MessageRequestSchema } from './message.js';

/**
 * One item of a conversation as the decider and the packet builder read it: a turn of the
 * customer, the agent or a human, or a tool call with its result. This is also the line format
 * of `baton decide --jsonl` and `baton packet --jsonl`.
 */
export const TranscriptItemSchema = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('customer'),
    text: z.string(),
    /** The customer pressed a control of their channel ("Talk to a person"): a request for a person, whatever the text. */
    request: MessageRequestSchema.optional(),
  }),
  z.object({ role: z.literal('agent'), text: z.string() }),
  z.object({ role: z.literal('human'), text: z.string() }),
  z.object({
    role: z.literal('tool'),
    name: z.string().min(1),
    arguments: z.record(z.string(), z.unknown()),
    ok: z.boolean(),
    output: z.string(),
    /**
     * Why the harness refused the call without running it (`unknown_tool`, `invalid_arguments`,
     * `needs_confirmation`, …): the tool never saw it, so its output says nothing about the tool.
     */
    refused: z.string().optional(),
  }),
]);
export type TranscriptItem = z.infer<typeof TranscriptItemSchema>;
export type ToolItem = Extract<TranscriptItem, { role: 'tool' }>;

/** Hand-off reasons the decider gives. */
export const DECIDER_REASONS = [
  'customer_request',
  'policy_topic',
  'safety',
  'no_capability',
  'value_threshold',
  'tool_failures',
  'loop_detected',
  'frustration_and_loop',
] as const;
export const DeciderReasonSchema = z.enum(DECIDER_REASONS);
export type DeciderReason = z.infer<typeof DeciderReasonSchema>;

/** Every reason a conversation can be handed off for: the decider's, and the harness's own. */
export const HandoffReasonSchema = z.enum([
  ...DECIDER_REASONS,
  /** The agent reached its step limit without replying. */
  'step_limit',
  /** The conversation's budget of model calls, tokens or wall time is spent. */
  'budget_exhausted',
  /** The model provider failed or timed out. */
  'provider_down',
  /** An output guardrail tripped. */
  'guardrail',
  /** The model chose to hand off (its `handoff` tool), for a reason not listed above. */
  'agent_decision',
]);
export type HandoffReason = z.infer<typeof HandoffReasonSchema>;

/**
 * How a hand-back reads in the transcript: a human item with this prefix and the person's notes.
 * The agent's view of what the customer asked starts after it: what came before, a person dealt with.
 */
export const HAND_BACK_PREFIX = 'I handled this conversation and handed it back to you. My notes: ';
