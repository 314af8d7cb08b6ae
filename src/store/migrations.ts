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

// Each table is one b-tree keyed the way it is read (SQLite: WITHOUT ROWID), and each write
// touches as few pages as it can: the hot paths (send, transition) are bound by how much every
// commit writes. See docs/decisions/0003-storage-layout.md.
const tables = (t: { clustered: string; conversationsWith: string; eventSeq: string }) => `
CREATE TABLE conversations (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  owner_type TEXT NOT NULL,
  owner_id TEXT,
  speaker TEXT,
  version INTEGER NOT NULL,${t.eventSeq}
  queued_at TEXT,
  created_at TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  doc TEXT NOT NULL
)${t.clustered}${t.conversationsWith};
CREATE INDEX conversations_queued ON conversations (owner_id, queued_at, id) WHERE state = 'QUEUED';
CREATE TABLE events (
  conversation_id TEXT NOT NULL REFERENCES conversations (id),
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  at TEXT NOT NULL,
  data TEXT NOT NULL,
  idempotency_key TEXT,
  PRIMARY KEY (conversation_id, seq)
)${t.clustered};
CREATE UNIQUE INDEX events_idempotency ON events (conversation_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
`;

// Who may call (see store/directory.ts). Sessions and customer tokens are kept as SHA-256
// hashes: a copy of the database does not let anyone in.
const AUTH_TABLES = `
CREATE TABLE staff (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  doc TEXT NOT NULL
);
CREATE TABLE staff_sessions (
  token_hash TEXT PRIMARY KEY,
  staff_id TEXT NOT NULL REFERENCES staff (id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE TABLE customer_tokens (
  conversation_id TEXT PRIMARY KEY REFERENCES conversations (id),
  token_hash TEXT NOT NULL
);
`;

// The router's state (docs/router.md): who can take work and how much they hold, the requests
// waiting for a person, and the offers (reservations) made to people. Times are epoch ms.
export const ROUTING_TABLES = `
CREATE TABLE routing_staff (
  staff_id TEXT PRIMARY KEY,
  skills TEXT NOT NULL,
  capacity INTEGER NOT NULL,
  presence TEXT NOT NULL,
  used INTEGER NOT NULL,
  idle_since BIGINT NOT NULL
);
CREATE INDEX routing_staff_open ON routing_staff (idle_since, staff_id) WHERE presence = 'available' AND used < capacity;
CREATE TABLE routing_requests (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL REFERENCES conversations (id),
  seq BIGINT NOT NULL,
  channel TEXT NOT NULL,
  skills TEXT NOT NULL,
  priority INTEGER NOT NULL,
  safety INTEGER NOT NULL,
  targets TEXT NOT NULL,
  target_index INTEGER NOT NULL,
  queue TEXT,
  target_deadline BIGINT,
  enqueued_at BIGINT NOT NULL,
  status TEXT NOT NULL,
  excluded TEXT NOT NULL,
  staff_id TEXT,
  reservation_id TEXT,
  warm_from TEXT,
  direct INTEGER NOT NULL DEFAULT 0,
  age_alerted INTEGER NOT NULL DEFAULT 0,
  assigned_at BIGINT,
  ended_at BIGINT
);
CREATE INDEX routing_requests_waiting ON routing_requests (status, priority DESC, enqueued_at, seq);
CREATE INDEX routing_requests_deadline ON routing_requests (status, target_deadline);
CREATE INDEX routing_requests_conversation ON routing_requests (conversation_id, seq);
CREATE INDEX routing_requests_done ON routing_requests (queue, status, ended_at);
CREATE TABLE routing_reservations (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL REFERENCES routing_requests (id),
  staff_id TEXT NOT NULL,
  weight INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  resolved_at BIGINT
);
CREATE INDEX routing_reservations_pending ON routing_reservations (status, expires_at);
CREATE INDEX routing_reservations_staff ON routing_reservations (staff_id, status);
`;

// Durable jobs (timers) — src/runtime/jobs/, docs/decisions/0016-durable-timers.md. On SQLite the
// queue is this table, in the store's file, so that a handler's effect and its completion commit in
// one transaction. Times are epoch milliseconds. At most one pending job per key (re-scheduling
// replaces it); a running job and a pending one may share a key (re-scheduled while it ran); done
// and failed jobs stay as the record of what happened.
const SQLITE_JOBS = `
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  payload TEXT NOT NULL,
  run_at INTEGER NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'running', 'done', 'failed')),
  attempts INTEGER NOT NULL,
  max_attempts INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  finished_at INTEGER
);
CREATE UNIQUE INDEX jobs_pending_key ON jobs (key) WHERE state = 'pending';
CREATE INDEX jobs_due ON jobs (run_at) WHERE state = 'pending';
CREATE INDEX jobs_leases ON jobs (lease_until) WHERE state = 'running';
CREATE INDEX jobs_by_key ON jobs (key, id);
`;

// On PostgreSQL the queue is graphile-worker's own schema (it migrates it itself); these two tables
// are Baton's beside it: the record of completed runs (which makes a handler's effect exactly-once:
// it commits with its row, and a retry that finds the row skips the handler), and the heartbeats
// that turn graphile-worker's locks into leases (a lock held by a worker that stopped beating is
// released, so another process retries the job).
const POSTGRES_JOBS = `
CREATE TABLE jobs_done (
  job_id BIGINT PRIMARY KEY,
  key TEXT NOT NULL,
  name TEXT NOT NULL,
  done_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX jobs_done_by_key ON jobs_done (key, done_at);
CREATE TABLE job_workers (
  worker_id TEXT PRIMARY KEY,
  beat_at TIMESTAMPTZ NOT NULL
);
`;

// Channels (src/runtime/channels/): which conversation a customer's channel address is in now,
// the customer's last message there (WhatsApp's 24-hour window) and how far delivery has got in
// the log (`delivered_seq`, the outbox's cursor) and which process is delivering (`lease_*`: one
// at a time, so several processes never send the same message twice); provider message ids seen, so a redelivery is
// stored once even after the address moved to a new conversation; the statuses each reported.
// No secret is kept here: they come from the environment (docs/channels.md).
const CHANNEL_TABLES = `
CREATE TABLE channel_addresses (
  channel TEXT NOT NULL,
  address TEXT NOT NULL,
  conversation_id TEXT NOT NULL REFERENCES conversations (id),
  last_customer_at TEXT,
  delivered_seq INTEGER NOT NULL,
  lease_owner TEXT,
  lease_until TEXT,
  bound_at TEXT NOT NULL,
  PRIMARY KEY (channel, address)
);
CREATE UNIQUE INDEX channel_addresses_conversation ON channel_addresses (conversation_id);
CREATE TABLE channel_messages (
  channel TEXT NOT NULL,
  provider_message_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL REFERENCES conversations (id),
  message_id TEXT,
  direction TEXT NOT NULL,
  PRIMARY KEY (channel, provider_message_id)
);
CREATE TABLE channel_statuses (
  channel TEXT NOT NULL,
  provider_message_id TEXT NOT NULL,
  status TEXT NOT NULL,
  PRIMARY KEY (channel, provider_message_id, status)
);
`;

// Who runs a conversation's agent turn now, across processes (src/store/turn-leases.ts): an
// owner (a process's random id) and an expiry in epoch ms, so a dead process's lease runs out.
const TURN_LEASES = `
CREATE TABLE turn_leases (
  conversation_id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  until BIGINT NOT NULL
);
`;

// Lab episodes on the job queue (docs/lab.md, ADR 0024): a run's configuration as its workers
// read it, and each episode's record, written in the transaction that completes its job. The
// primary key is what makes a record exactly once. PostgreSQL only: the queue is graphile-worker.
const LAB_EPISODE_TABLES = `
CREATE TABLE lab_runs (
  run_id TEXT PRIMARY KEY,
  spec TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE lab_episodes (
  run_id TEXT NOT NULL REFERENCES lab_runs (run_id),
  key TEXT NOT NULL,
  record TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  worker TEXT NOT NULL,
  wall_ms INTEGER NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
);
`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations and their append-only event logs',
    sqlite: `${tables({ clustered: ' WITHOUT ROWID', conversationsWith: '', eventSeq: '' })}
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;`,
    postgres: `${tables({
      clustered: '',
      conversationsWith: ' WITH (fillfactor = 70)',
      // The last log position, bumped by every append: the UPDATE that bumps it is also the row
      // lock that serialises one conversation's writers (see PostgresStore).
      eventSeq: '\n  event_seq INTEGER NOT NULL,',
    })}
CREATE FUNCTION baton_events_append_only() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN RAISE EXCEPTION 'events are append-only'; END; $$;
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
FOR EACH ROW EXECUTE FUNCTION baton_events_append_only();`,
  },
  {
    version: 2,
    name: 'staff accounts, staff sessions and customer tokens (hashes only)',
    sqlite: AUTH_TABLES,
    postgres: AUTH_TABLES,
  },
  {
    version: 3,
    name: 'routing: staff capacity and presence, requests waiting for a person, reservations',
    sqlite: ROUTING_TABLES,
    postgres: ROUTING_TABLES,
  },
  { version: 4, name: 'jobs', sqlite: SQLITE_JOBS, postgres: POSTGRES_JOBS },
  {
    version: 5,
    name: 'channels',
    sqlite: CHANNEL_TABLES,
    postgres: CHANNEL_TABLES,
  },
  {
    version: 6,
    name: 'lab_episodes',
    // The lab's job queue runs on PostgreSQL only; a SQLite file records the version and holds no lab table.
    sqlite: '-- lab episodes on the job queue: PostgreSQL only',
    postgres: LAB_EPISODE_TABLES,
  },
  { version: 7, name: 'turn leases', sqlite: TURN_LEASES, postgres: TURN_LEASES },
  {
    version: 8,
    name: 'announce appends to other processes (PostgreSQL NOTIFY)',
    // SQLite has no notifications: one server per file, whose wake-ups are in-process.
    sqlite: 'SELECT 1;',
    postgres: `
CREATE FUNCTION baton_announce_event() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN PERFORM pg_notify('baton_events', NEW.conversation_id); RETURN NULL; END; $$;
CREATE TRIGGER events_announce AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION baton_announce_event();`,
  },
  {
    version: 9,
    // Every hand-off reads max(seq) of the routing requests to number the next one: without an
    // index that is a scan of a table that never shrinks.
    name: 'routing requests: an index on their order',
    sqlite: 'CREATE INDEX routing_requests_seq ON routing_requests (seq);',
    postgres: 'CREATE INDEX routing_requests_seq ON routing_requests (seq);',
  },
  {
    version: 10,
    // A queue's wait estimate is read from its own history (docs/decisions/0043): when a served
    // item's offer was made, for each wait told an estimate the model it was told from and how
    // long it lasted, and each queue's moving mean of holding time. The index holds only the waits
    // that ended, so routing's writes of waiting and offered requests add no entry to it.
    name: 'routing requests: the estimate told and the wait that followed',
    sqlite: waitHistoryColumns('REAL'),
    postgres: waitHistoryColumns('DOUBLE PRECISION'),
  },
];

/** The versions after 3 that change the router's tables: a router beside a memory store applies them too. */
const ROUTING_VERSIONS = new Set([9, 10]);

/** The router's tables as the migrations leave them, in SQLite (for a router beside a memory store). */
export function routingTablesSqlite(): string {
  return [ROUTING_TABLES, ...MIGRATIONS.filter((m) => ROUTING_VERSIONS.has(m.version)).map((m) => m.sqlite)].join('\n');
}

function waitHistoryColumns(double: string): string {
  return `
ALTER TABLE routing_requests ADD COLUMN reserved_at BIGINT;
ALTER TABLE routing_requests ADD COLUMN told_queue TEXT;
ALTER TABLE routing_requests ADD COLUMN told_k INTEGER;
ALTER TABLE routing_requests ADD COLUMN told_scale_ms ${double};
ALTER TABLE routing_requests ADD COLUMN waited_ms BIGINT;
CREATE INDEX routing_requests_waits ON routing_requests (told_queue, seq) WHERE waited_ms IS NOT NULL;
CREATE TABLE routing_queue_holding (
  queue TEXT PRIMARY KEY,
  holding_ms ${double} NOT NULL,
  served BIGINT NOT NULL
);`;
}

export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at TEXT NOT NULL
)`;
