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

export function messageColumns(m: Message) {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    direction: m.direction,
    idempotency_key: m.idempotencyKey,
    schema_version: m.schemaVersion,
    doc: JSON.stringify(m),
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
}

/** Rows are validated on the way out: a stored record that does not parse is a bug, loudly. */
export const conversationFromDoc = (doc: string): Conversation => ConversationSchema.parse(JSON.parse(doc));
export const messageFromDoc = (doc: string): Message => MessageSchema.parse(JSON.parse(doc));
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
