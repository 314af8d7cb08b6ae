/**
 * What `baton bench cluster` checks in the final logs, read from PostgreSQL (the truth), against
 * what the clients saw: every acknowledged customer message is in its log once; no customer
 * message got two agent replies; no agent spoke while a person owned the conversation (the core
 * audit, which also checks each log's order, versions and entries); every hand-off left
 * HANDOFF_PENDING (for a queue or a person) within its timeout; and every entry of a followed
 * conversation's final log reached the console that followed it.
 */
import { auditLog, evolve, type Conversation, type ConversationId, type StoredEvent } from '../core/index.js';
import type { Store } from '../store/store.js';
import type { CustomerRecord } from './cluster-customers.js';

export interface ClusterAudit {
  conversations: number;
  /** Customer messages that got two (or more) agent replies before the next customer message. */
  double_replies: number;
  /** A customer message answered 201/200 whose message is not in the log (or not as the id answered). */
  lost_messages: number;
  /** One idempotency key answered with two message ids, or a message received twice. */
  duplicate_messages: number;
  /** The core audit's double_reply where the sender was an agent and a person could speak. */
  agent_messages_while_human_owner: number;
  /** Any other broken invariant the core audit found (log order, versions, duplicate entries). */
  log_violations: number;
  log_violation_examples: string[];
  handoffs: number;
  /** Hand-offs still pending at the end, or pending for longer than the timeout. */
  stuck_handoff_pending: number;
  /** The longest any hand-off stayed pending, ms. */
  longest_handoff_pending_ms: number;
  /** Conversations still in HANDOFF_PENDING or QUEUED at the end. */
  still_waiting_for_a_person: number;
  /** The last entries of a few of those logs (type, and what the router noted), to see where they stopped. */
  still_waiting_examples: Array<{ id: string; tail: string[] }>;
  /** The same for conversations whose customer waited in vain for an answer. */
  unanswered_examples: Array<{ id: string; tail: string[] }>;
}

/** Customer messages followed by more than one agent message before the next customer message. */
function doubleReplies(events: readonly StoredEvent[]): number {
  let replies = 0;
  let doubles = 0;
  let sawCustomer = false;
  for (const e of events) {
    if (e.type === 'message.received') {
      sawCustomer = true;
      replies = 0;
    } else if (e.type === 'message.sent' && e.data.message.sender.type === 'agent' && sawCustomer) {
      replies += 1;
      if (replies === 2) doubles += 1;
    }
  }
  return doubles;
}

/** Each stay in HANDOFF_PENDING: how long it lasted (null: it never ended). */
function pendingStays(events: readonly StoredEvent[]): Array<number | null> {
  const stays: Array<number | null> = [];
  let conversation: Conversation | null = null;
  let since: number | null = null;
  for (const e of events) {
    conversation = evolve(conversation, e);
    const pending = conversation.state === 'HANDOFF_PENDING';
    if (pending && since === null) since = Date.parse(e.at);
    if (!pending && since !== null) {
      stays.push(Date.parse(e.at) - since);
      since = null;
    }
  }
  if (since !== null) stays.push(null);
  return stays;
}

const tailOf = (events: readonly StoredEvent[]) =>
  events.slice(-14).map((e) => `${e.seq} ${e.at} ${e.type}${e.type === 'routing.noted' ? ` ${JSON.stringify(e.data)}` : ''}`);

export async function auditCluster(store: Store, customers: readonly CustomerRecord[], handoffTimeoutMs: number): Promise<ClusterAudit> {
  const audit: ClusterAudit = {
    conversations: 0,
    double_replies: 0,
    lost_messages: 0,
    duplicate_messages: 0,
    agent_messages_while_human_owner: 0,
    log_violations: 0,
    log_violation_examples: [],
    handoffs: 0,
    stuck_handoff_pending: 0,
    longest_handoff_pending_ms: 0,
    still_waiting_for_a_person: 0,
    still_waiting_examples: [],
    unanswered_examples: [],
  };
  const acknowledged = new Map<string, CustomerRecord>();
  for (const c of customers) if (c.id) acknowledged.set(c.id, c);
  for (const id of await store.listConversationIds()) {
    const events = await store.listEvents(id as ConversationId);
    audit.conversations += 1;
    audit.double_replies += doubleReplies(events);
    for (const v of auditLog(events).violations) {
      if (v.kind === 'double_reply' && v.sender?.startsWith('agent:') && v.speaker?.startsWith('human:'))
        audit.agent_messages_while_human_owner += 1;
      else {
        audit.log_violations += 1;
        if (audit.log_violation_examples.length < 5) audit.log_violation_examples.push(`${id}: ${v.message}`);
      }
    }
    for (const stay of pendingStays(events)) {
      audit.handoffs += 1;
      if (stay === null || stay > handoffTimeoutMs) audit.stuck_handoff_pending += 1;
      if (stay !== null) audit.longest_handoff_pending_ms = Math.max(audit.longest_handoff_pending_ms, stay);
    }
    const last = events.reduce<Conversation | null>((c, e) => evolve(c, e), null);
    if (last && (last.state === 'HANDOFF_PENDING' || last.state === 'QUEUED')) {
      audit.still_waiting_for_a_person += 1;
      if (audit.still_waiting_examples.length < 3)
        audit.still_waiting_examples.push({
          id,
          tail: tailOf(events),
        });
    }
    const record = acknowledged.get(id);
    if (!record) continue;
    if (record.unanswered > 0 && audit.unanswered_examples.length < 3) audit.unanswered_examples.push({ id, tail: tailOf(events) });
    const received = new Map<string, number>();
    for (const e of events) if (e.type === 'message.received') received.set(e.data.message.id, (received.get(e.data.message.id) ?? 0) + 1);
    const idsByKey = new Map<string, Set<string>>();
    for (const a of record.acknowledged) {
      if (!received.has(a.messageId)) audit.lost_messages += 1;
      idsByKey.set(a.key, (idsByKey.get(a.key) ?? new Set()).add(a.messageId));
    }
    for (const ids of idsByKey.values()) if (ids.size > 1) audit.duplicate_messages += ids.size - 1;
    for (const n of received.values()) if (n > 1) audit.duplicate_messages += n - 1;
  }
  // A conversation a customer was told exists but whose log is gone.
  for (const [id, record] of acknowledged)
    if ((await store.getConversation(id as ConversationId)) === null) audit.lost_messages += record.acknowledged.length;
  return audit;
}

/** Entries of a followed conversation's final log that its console never got (and entries it got twice). */
export async function consoleMisses(
  store: Store,
  followed: ReadonlyArray<{ conversation: string; seqs: ReadonlySet<number>; duplicates: number }>,
): Promise<{ followed: number; events: number; missed: number; duplicates: number }> {
  let events = 0;
  let missed = 0;
  let duplicates = 0;
  for (const f of followed) {
    const log = await store.listEvents(f.conversation as ConversationId);
    events += log.length;
    missed += log.filter((e) => !f.seqs.has(e.seq)).length;
    duplicates += f.duplicates;
  }
  return { followed: followed.length, events, missed, duplicates };
}
