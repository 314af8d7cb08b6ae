import type { Conversation } from './conversation.js';
import { speakerOf } from './conversation.js';
import { isTransitionEvent, type StoredEvent } from './events.js';
import type { Message } from './message.js';
import { senderKey } from './owner.js';
import { evolve } from './ownership.js';

/** What replaying one conversation's log found. */
export interface LogAudit {
  /** The conversation rebuilt from its events alone (null if the log has no creation event). */
  replayed: Conversation | null;
  /** Broken invariants, one sentence each; empty when the log is sound. */
  violations: string[];
}

/**
 * Replays a conversation's event log and checks the gateway's promises against it:
 * the log is contiguous and starts with its creation; versions strictly increase by one per
 * transition; every delivered message came from the party allowed to speak at that point of
 * the log; and, when the messages are given, each one has exactly its one log entry.
 */
export function auditLog(events: readonly StoredEvent[], messages?: readonly Message[]): LogAudit {
  const violations: string[] = [];
  let conversation: Conversation | null = null;
  const sent = new Map<string, string>();
  const received = new Set<string>();
  events.forEach((event, index) => {
    if (event.seq !== index + 1) violations.push(`event ${event.id} has seq ${event.seq}, expected ${index + 1}`);
    if (index === 0 && event.type !== 'conversation.created') violations.push('the log does not start with conversation.created');
    if (conversation === null && event.type !== 'conversation.created') return;
    if (event.type === 'message.sent') {
      const speaker = conversation ? speakerOf(conversation) : null;
      const key = senderKey(event.data.sender);
      if (speaker !== key) {
        violations.push(`message ${event.data.messageId} delivered from ${key} while ${speaker ?? 'nobody'} could speak`);
      }
      if (sent.has(event.data.messageId)) violations.push(`message ${event.data.messageId} sent twice`);
      sent.set(event.data.messageId, key);
    }
    if (event.type === 'message.received') {
      if (received.has(event.data.messageId)) violations.push(`message ${event.data.messageId} received twice`);
      received.add(event.data.messageId);
    }
    if (isTransitionEvent(event) && conversation && event.data.version !== conversation.version + 1) {
      violations.push(`event ${event.id} moves version ${conversation.version} to ${event.data.version}`);
    }
    conversation = evolve(conversation, event);
  });
  if (messages) {
    for (const message of messages) {
      const logged = message.direction === 'inbound' ? received.has(message.id) : sent.has(message.id);
      if (!logged) violations.push(`${message.direction} message ${message.id} has no log entry`);
    }
    const stored = new Set<string>(messages.map((m) => m.id));
    for (const id of [...received, ...sent.keys()]) {
      if (!stored.has(id)) violations.push(`logged message ${id} is missing from the messages`);
    }
  }
  return { replayed: conversation, violations };
}
