import { z } from 'zod';
import { AgentIdSchema, QueueIdSchema, StaffIdSchema } from './ids.js';

/** Who owns a conversation: an agent, a queue waiting for a human, one human, or nobody. */
export const OwnerSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent'), id: AgentIdSchema }),
  z.object({ type: z.literal('queue'), id: QueueIdSchema }),
  z.object({ type: z.literal('human'), id: StaffIdSchema }),
  z.object({ type: z.literal('none') }),
]);
export type Owner = z.infer<typeof OwnerSchema>;

/** Who sends an outbound message. `system` speaks only while a conversation waits for a human. */
export const SenderSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent'), id: AgentIdSchema }),
  z.object({ type: z.literal('human'), id: StaffIdSchema }),
  z.object({ type: z.literal('system') }),
]);
export type Sender = z.infer<typeof SenderSchema>;

/** Who may issue a command: a sender, the customer, or the platform itself (router, timers). */
export const ActorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('agent'), id: AgentIdSchema }),
  z.object({ type: z.literal('human'), id: StaffIdSchema }),
  z.object({ type: z.literal('customer') }),
  z.object({ type: z.literal('system') }),
]);
export type Actor = z.infer<typeof ActorSchema>;

/** A stable text key for a sender, e.g. `agent:agent_billing`; `system` for the platform. */
export function senderKey(sender: Sender): string {
  return sender.type === 'system' ? 'system' : `${sender.type}:${sender.id}`;
}

/** Two owners are the same party. */
export function sameOwner(a: Owner, b: Owner): boolean {
  if (a.type === 'none' || b.type === 'none') return a.type === b.type;
  return a.type === b.type && a.id === b.id;
}

/** Human-readable owner, for messages and logs. */
export function describeOwner(owner: Owner): string {
  return owner.type === 'none' ? 'nobody' : `${owner.type} ${owner.id}`;
}
