import { createConversationRedactor, type ConversationRedactor } from '../../core/index.js';

/**
 * How the service keeps secrets from being stored: every text and every tool argument goes
 * through it on the way to the log. The raw value lives only in memory, for the one turn whose
 * tool call needs it. `conversationId` lets it use what that conversation showed before.
 */
export interface Redactor {
  /** A customer's message, read as the answer to what the conversation last said to them. */
  inbound(text: string, conversationId: string): string;
  /** What the agent, a person or the system says to the customer (remembered as the next question). */
  outbound(text: string, conversationId: string): string;
  /** Any other text: summaries, notes, evidence, tool outputs. */
  text(text: string, conversationId?: string): string;
  args(args: Record<string, unknown>, conversationId?: string): Record<string, unknown>;
  /** A structured value (the context packet) with every value the conversation showed before removed. */
  scrub<T>(value: T, conversationId: string): T;
}

/** Redacts every string inside a JSON-like value with `text`. */
export function redactDeep(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, text));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactDeep(v, text)]));
  }
  return value;
}

/** Conversations whose redaction memory one process keeps; the oldest is forgotten first. */
const MAX_CONVERSATIONS = 10_000;

/**
 * Core's redaction with a memory per conversation (a code the customer typed is recognised again
 * when the agent repeats it, a bare "480871" is read as the answer to "read me the code"), kept
 * in memory for the most recent conversations. Without a conversation id, each text stands alone.
 */
export function createRuntimeRedactor(): Redactor {
  const memory = new Map<string, { redactor: ConversationRedactor; lastSaid: string | null }>();
  const of = (id: string | undefined) => {
    if (id === undefined) return { redactor: createConversationRedactor(), lastSaid: null };
    let entry = memory.get(id);
    if (entry) memory.delete(id);
    else {
      entry = { redactor: createConversationRedactor(), lastSaid: null };
      if (memory.size >= MAX_CONVERSATIONS) memory.delete(memory.keys().next().value!);
    }
    memory.set(id, entry);
    return entry;
  };
  return {
    inbound: (text, id) => {
      const entry = of(id);
      return entry.redactor.text(text, entry.lastSaid === null ? {} : { answers: entry.lastSaid }).text;
    },
    outbound: (text, id) => {
      const entry = of(id);
      // The question the customer's next message answers is what they saw, not the raw text.
      entry.lastSaid = text;
      return entry.redactor.text(text).text;
    },
    text: (text, id) => of(id).redactor.text(text).text,
    args: (args, id) => of(id).redactor.arguments(args).arguments,
    scrub: (value, id) => of(id).redactor.scrub(value).value,
  };
}

/** Stores everything as given: for tests of the service's own logic, never for serving customers. */
export const noRedaction: Redactor = { inbound: (t) => t, outbound: (t) => t, text: (t) => t, args: (a) => a, scrub: (v) => v };
