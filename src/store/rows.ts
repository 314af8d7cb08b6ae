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

/** Rows are validated on the way out: a stored record that does not parse is a bug, loudly. */
export const conversationFromDoc = (doc: string): Conversation => ConversationSchema.parse(JSON.parse(doc));
/** The message inside a `message.received` or `message.sent` entry's data. */
export const messageFromData = (data: string): Message => MessageSchema.parse((JSON.parse(data) as { message: unknown }).message);

/** Log entries that are customer-visible messages. */
export const MESSAGE_EVENT_TYPES = `('message.received', 'message.sent')`;
export function eventFromRow(row: EventRow): StoredEvent {
  return StoredEventSchema.parse({
    schemaVersion: row.schema_version,
    id: row.id,
    conversationId: row.conversation_id,
    at: row.at,
    type: row.type,
    data: JSON.parse(row.data),
    seq: Number(row.seq),
  }) as StoredEvent;
}

export { SCHEMA_VERSION };
