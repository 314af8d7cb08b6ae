import { describe, expect, it } from 'vitest';
import { auditLog } from './audit-log.js';
import { newConversation } from './conversation.js';
import type { StoredEvent } from './events.js';
import type { AgentId, ConversationId, EventId, MessageId, StaffId } from './ids.js';
import type { Message } from './message.js';

const at = '2026-01-01T00:00:00.000Z';
const conversationId = 'conv_1' as ConversationId;
const agent = 'agent_a' as AgentId;
const staff = 'staff_1' as StaffId;
const base = (seq: number) => ({ schemaVersion: 1 as const, id: `evt_${seq}` as EventId, conversationId, at, seq });
const created: StoredEvent = {
  ...base(1),
  type: 'conversation.created',
  data: { conversation: newConversation({ id: conversationId, agentId: agent, channel: 'test', customerId: null, at }) },
};
const claimed = (seq: number, version: number): StoredEvent => ({
  ...base(seq),
  type: 'conversation.claimed',
  data: {
    version,
    state: 'HUMAN_ACTIVE',
    owner: { type: 'human', id: staff },
    from: { state: 'AGENT_ACTIVE', owner: { type: 'agent', id: agent } },
    staff,
  },
});
const outbound = (id: string): Message => ({
  schemaVersion: 1,
  id: id as MessageId,
  conversationId,
  direction: 'outbound',
  sender: { type: 'agent', id: agent },
  text: 'hi',
  idempotencyKey: null,
  at,
});
const sentByAgent = (seq: number, messageId: string): StoredEvent => ({
  ...base(seq),
  type: 'message.sent',
  data: { message: outbound(messageId) },
});

describe('auditLog', () => {
  it('accepts a sound log and replays it', () => {
    const audit = auditLog([created, sentByAgent(2, 'msg_1'), claimed(3, 2)], [outbound('msg_1')]);
    expect(audit.violations).toEqual([]);
    expect(audit.replayed).toMatchObject({ state: 'HUMAN_ACTIVE', version: 2, lastHumanId: staff });
  });

  it('flags a reply delivered after the sender lost the conversation (a double reply)', () => {
    const audit = auditLog([created, claimed(2, 2), sentByAgent(3, 'msg_1')], [outbound('msg_1')]);
    expect(audit.violations.map((v) => v.kind)).toEqual(['double_reply']);
    expect(audit.violations[0]!.message).toContain('human:staff_1');
    // Who spoke and who could, as fields (the cluster benchmark counts agent messages under a human owner from them).
    expect(audit.violations[0]).toMatchObject({ sender: expect.stringMatching(/^agent:/), speaker: 'human:staff_1' });
  });

  it('flags gaps in the log, skipped versions, and messages without their log entry or vice versa', () => {
    const audit = auditLog([created, claimed(3, 4), sentByAgent(4, 'msg_9')], [outbound('msg_1')]);
    const kinds = audit.violations.map((v) => v.kind).sort();
    expect(kinds).toEqual(['double_reply', 'log_order', 'log_order', 'missing_message', 'unlogged_message', 'version']);
  });

  it('flags a log that does not start with the creation of the conversation', () => {
    expect(auditLog([{ ...claimed(1, 2) }]).violations.map((v) => v.kind)).toEqual(['log_order']);
  });
});
