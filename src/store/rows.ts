import {
  ConversationSchema,
  MessageSchema,
  SCHEMA_VERSION,
  StoredEventSchema,
  speakerOf,
  type Conversation,
  type Message,
  type NewEvent,
  type StoredEvent,
} from '../core/index.js';

/** The columns of a conversation row; the `doc` is the whole conversation as JSON. */
export function conversationColumns(c: Conversation) {
  return {
    id: c.id,
    state: c.state,
    owner_type: c.owner.type,
    owner_id: c.owner.type === 'none' ? null : c.owner.id,
    speaker: speakerOf(c),
    version: c.version,
    queued_at: c.queuedAt,
    created_at: c.createdAt,
    schema_version: c.schemaVersion,
    doc: JSON.stringify(c),
  };
}

export function eventColumns(e: NewEvent) {
  return {
    conversation_id: e.conversationId,
    id: e.id,
    type: e.type,
    schema_version: e.schemaVersion,
    at: e.at,
    data: JSON.stringify(e.data),
    idempotency_key: e.type === 'message.received' ? e.data.message.idempotencyKey : null,
  };
}

export interface EventRow {
  conversation_id: string;
  seq: number | string;
  id: string;
  type: string;
  schema_version: number;
  at: string;
  data: string;
  idempotency_key?: string | null;
}

/**
 * Row texts this process has validated, each with the JSON of what validating it gave: the same
 * text read again is answered with `JSON.parse` of that, which is the validated value itself
 * (the same fields, values and key order), without validating the same bytes again. Rows never
 * change in place (events are append-only; a conversation's doc is replaced whole by its next
 * version), and the key is the whole text, so a changed row is a new key, validated on its first
 * read. Bounded by total length: past the cap it starts again.
 */
const validatedRows = new Map<string, string>();
const MAX_VALIDATED_CHARS = 32_000_000;
let validatedChars = 0;

function validatedOnce<T>(key: string, validate: () => T): T {
  const known = validatedRows.get(key);
  if (known !== undefined) return JSON.parse(known) as T;
  const value = validate();
  const json = JSON.stringify(value);
  if (validatedChars + key.length + json.length > MAX_VALIDATED_CHARS) {
    validatedRows.clear();
    validatedChars = 0;
  }
  validatedRows.set(key, json);
  validatedChars += key.length + json.length;
  return value;
}

/** Rows are validated on the way out: a stored record that does not parse is a bug, loudly. */
export const conversationFromDoc = (doc: string): Conversation => validatedOnce(doc, () => ConversationSchema.parse(JSON.parse(doc)));
/** The message inside a `message.received` or `message.sent` entry's data. */
export const messageFromData = (data: string): Message => MessageSchema.parse((JSON.parse(data) as { message: unknown }).message);

/** Log entries that are customer-visible messages. */
export const MESSAGE_EVENT_TYPES = `('message.received', 'message.sent')`;
export function eventFromRow(row: EventRow): StoredEvent {
  const seq = Number(row.seq);
  const key = `${row.id}\u0000${row.conversation_id}\u0000${seq}\u0000${row.type}\u0000${row.schema_version}\u0000${row.at}\u0000${row.data}`;
  return validatedOnce(
    key,
    () =>
      StoredEventSchema.parse({
        schemaVersion: row.schema_version,
        id: row.id,
        conversationId: row.conversation_id,
        at: row.at,
        type: row.type,
        data: JSON.parse(row.data),
        seq,
      }) as StoredEvent,
  );
}

export { SCHEMA_VERSION };
