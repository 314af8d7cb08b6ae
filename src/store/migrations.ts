/**
 * Versioned schema migrations, applied in order on start and recorded in `schema_migrations`.
 * A migration, once released, is never edited: a change is a new entry.
 */
export interface Migration {
  version: number;
  name: string;
  sqlite: string;
  postgres: string;
}

const tables = (t: { serial: string; bigint: string }) => `
CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  owner_type TEXT NOT NULL,
  owner_id TEXT,
  speaker TEXT,
  version INTEGER NOT NULL,
  event_seq INTEGER NOT NULL,
  queued_at TEXT,
  created_at TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  doc TEXT NOT NULL
);
CREATE INDEX conversations_queued ON conversations (owner_id, queued_at, id) WHERE state = 'QUEUED';
CREATE TABLE messages (
  n ${t.serial},
  id TEXT NOT NULL UNIQUE,
  conversation_id TEXT NOT NULL REFERENCES conversations (id),
  direction TEXT NOT NULL,
  idempotency_key TEXT,
  schema_version INTEGER NOT NULL,
  doc TEXT NOT NULL,
  UNIQUE (conversation_id, idempotency_key)
);
CREATE INDEX messages_conversation ON messages (conversation_id, n);
CREATE TABLE events (
  conversation_id TEXT NOT NULL REFERENCES conversations (id),
  seq INTEGER NOT NULL,
  id TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  at TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (conversation_id, seq)
);
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations, messages and the append-only event log',
    sqlite: `${tables({ serial: 'INTEGER PRIMARY KEY AUTOINCREMENT', bigint: 'INTEGER' })}
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;`,
    postgres: `${tables({ serial: 'BIGSERIAL PRIMARY KEY', bigint: 'BIGINT' })}
CREATE FUNCTION baton_events_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'events are append-only'; END; $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
FOR EACH ROW EXECUTE FUNCTION baton_events_append_only();`,
  },
];

export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;
