/**
 * The wire of the trainer playing L2 (the supervisor) or L3 (the manager): what is put to it as an
 * observation's `review`, and the verdicts it steps with. `/schema` serves these for those roles.
 *
 * - L2 reviews L1's proposed high-risk actions (`kind: "action"`): `approve` (the call runs),
 *   `reject` with feedback (L1 reads it as the tool result), `take_over` (the call does not run
 *   and the conversation goes to people at once), or `escalate` with a reason (the manager
 *   decides). When L1 has handed the conversation off (`kind: "handoff"`), L2 keeps the
 *   hand-off with its queue (`approve`) or sends it on to the manager (`escalate`).
 * - L3 decides what the supervisor escalated to it (`kind: "handoff"`, with `escalation`):
 *   `decide` with `approve` (the manager takes the case) or `reject` (back to the queue).
 */
import { z } from 'zod';

/** The scripted L1 agents a trainer playing L2 or L3 works over. */
export const SCRIPTED_L1_NAMES = ['rule', 'oracle'] as const;
export type ScriptedL1Name = (typeof SCRIPTED_L1_NAMES)[number];

const metadata = z.record(z.string(), z.unknown()).optional();

/** One line of the conversation as the reviewer reads it. */
export const ReviewLineSchema = z.strictObject({
  from: z.enum(['customer', 'agent', 'tool']),
  text: z.string().nullable(),
  /** An agent line's tool calls. */
  calls: z.array(z.strictObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional(),
  /** A tool line's tool. */
  tool: z.string().optional(),
});

export const ReviewRequestSchema = z.strictObject({
  id: z.string().describe('This request’s id in the episode.'),
  kind: z.enum(['action', 'handoff']).describe('A proposed high-risk action, or L1’s hand-off of the conversation.'),
  turn: z.number().int().nonnegative().describe('The customer turn it came in.'),
  action: z
    .strictObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })
    .optional()
    .describe('With kind action: the call L1 proposes (it has not run).'),
  handoff: z
    .strictObject({ target: z.string().nullable(), reason: z.string().nullable(), summary: z.string().nullable() })
    .optional()
    .describe('With kind handoff: where L1 handed the conversation, why, and its summary.'),
  escalation: z.strictObject({ reason: z.string() }).optional().describe('For L3: why the supervisor escalated it.'),
  conversation: z.array(ReviewLineSchema).describe('The conversation so far, as L1 saw it.'),
  answers: z.array(z.string()).describe('The action types this request takes.'),
});
export type ReviewRequest = z.infer<typeof ReviewRequestSchema>;
export type ReviewLine = z.infer<typeof ReviewLineSchema>;

/** What the trainer playing L2 steps with. */
export const L2ActionSchema = z.discriminatedUnion('type', [
  z
    .strictObject({ type: z.literal('approve'), metadata })
    .describe('Approve: the proposed action runs; on a hand-off, it stays with its queue.'),
  z
    .strictObject({
      type: z.literal('reject'),
      feedback: z.string().min(1).describe('What L1 reads as the tool result: what to do instead.'),
      metadata,
    })
    .describe('Reject a proposed action, with feedback (not for a hand-off).'),
  z
    .strictObject({ type: z.literal('take_over'), metadata })
    .describe('Take the conversation over: the action does not run, and people (the labelled queue) have it at once (not for a hand-off).'),
  z
    .strictObject({ type: z.literal('escalate'), reason: z.string().min(1).describe('Why the manager should decide.'), metadata })
    .describe('Escalate to the L3 manager, who decides.'),
]);
export type L2Action = z.infer<typeof L2ActionSchema>;

/** What the trainer playing L3 steps with. */
export const L3ActionSchema = z
  .strictObject({
    type: z.literal('decide'),
    verdict: z.enum(['approve', 'reject']).describe('On an escalated hand-off: approve takes the case, reject returns it to the queue.'),
    feedback: z.string().min(1).optional(),
    metadata,
  })
  .describe('The manager’s decision on what was escalated to it.');
export type L3Action = z.infer<typeof L3ActionSchema>;
