import type { Conversation } from './conversation.js';
import { speakerOf } from './conversation.js';
import { isTransitionEvent, type StoredEvent } from './events.js';
import type { Message } from './message.js';
import { senderKey } from './owner.js';
import { evolve } from './ownership.js';

/** Kinds of broken invariant a log audit reports. */
export type LogViolationKind = 'double_reply' | 'log_order' | 'version' | 'duplicate_entry' | 'unlogged_message' | 'missing_message';

/** One broken invariant, with a sentence that says where. */
export interface LogViolation {
  kind: LogViolationKind;
  message: string;
  /** A `double_reply`: who sent the message (`customer`, `agent:<id>`, `human:<id>`, `system`) and who could speak then (null: nobody). */
  sender?: string;
  speaker?: string | null;
}

/** What replaying one conversation's log found. */
export interface LogAudit {
  /** The conversation rebuilt from its events alone (null if the log has no creation event). */
  replayed: Conversation | null;
  /** Broken invariants; empty when the log is sound. */
  violations: LogViolation[];
}

/**
 * Replays a conversation's event log and checks the gateway's promises against it:
 * the log is contiguous and starts with its creation; versions strictly increase by one per
 * transition; every delivered message came from the party allowed to speak at that point of
 * the log; and, when the messages are given, each one has exactly its one log entry.
 */
export function auditLog(events: readonly StoredEvent[], messages?: readonly Message[]): LogAudit {
  const violations: LogViolation[] = [];
  const flag = (kind: LogViolationKind, message: string, at: Pick<LogViolation, 'sender' | 'speaker'> = {}) =>
    violations.push({ kind, message, ...at });
  let conversation: Conversation | null = null;
  const sent = new Map<string, string>();
  const received = new Set<string>();
  events.forEach((event, index) => {
    if (event.seq !== index + 1) flag('log_order', `event ${event.id} has seq ${event.seq}, expected ${index + 1}`);
    if (index === 0 && event.type !== 'conversation.created') flag('log_order', 'the log does not start with conversation.created');
    if (conversation === null && event.type !== 'conversation.created') return;
    if (event.type === 'message.sent') {
      const { message } = event.data;
      const speaker = conversation ? speakerOf(conversation) : null;
      const key = message.sender.type === 'customer' ? 'customer' : senderKey(message.sender);
      if (speaker !== key || message.direction !== 'outbound') {
        flag('double_reply', `message ${message.id} delivered from ${key} while ${speaker ?? 'nobody'} could speak`, {
          sender: key,
          speaker,
        });
      }
      if (sent.has(message.id)) flag('duplicate_entry', `message ${message.id} sent twice`);
      sent.set(message.id, key);
    }
    if (event.type === 'message.received') {
      const { message } = event.data;
      if (received.has(message.id)) flag('duplicate_entry', `message ${message.id} received twice`);
      received.add(message.id);
    }
    if (isTransitionEvent(event) && conversation && event.data.version !== conversation.version + 1) {
      flag('version', `event ${event.id} moves version ${conversation.version} to ${event.data.version}`);
    }
    conversation = evolve(conversation, event);
  });
  if (messages) {
    for (const message of messages) {
      const logged = message.direction === 'inbound' ? received.has(message.id) : sent.has(message.id);
      if (!logged) flag('unlogged_message', `${message.direction} message ${message.id} has no log entry`);
    }
    const stored = new Set<string>(messages.map((m) => m.id));
    for (const id of [...received, ...sent.keys()]) {
      if (!stored.has(id)) flag('missing_message', `logged message ${id} is missing from the messages`);
    }
  }
  return { replayed: conversation, violations };
}
