import {
  chooseAssignee,
  type AssigneeCandidate,
  type ChannelWeights,
  type DeclineReason,
  type Presence,
  nextHolding,
  type QueueHistory,
  type RouterRequest,
  type RoutingQueue,
  type RoutingTarget,
} from '../core/router/index.js';
import type { ConversationId, StaffId } from '../core/index.js';
import { CANDIDATE_COLUMNS, declineAndRead, dispatchFirstRead } from './routing-postgres.js';
import { all, lockedAll, run, type SqlBody, type SqlRunner } from './routing-sql.js';

/** What the router knows about its queues and weights (from the configuration). */
export interface RoutingSetup {
  queues: ReadonlyMap<string, RoutingQueue>;
  weights: ChannelWeights;
  /**
   * Skills of which a person needs at least one to work a queue (a domain's queue lists them so),
   * beside the queue's required skills (all of them). Absent or empty: no such condition.
   */
  anySkills?: ReadonlyMap<string, readonly string[]>;
  /** A conversation waiting longer than this (ms) raises one queue-age alert; absent: none. */
  ageAlertMs?: number;
}

/** A router fact, tied to the conversation it is about. */
export type RoutingFact =
  | { kind: 'queued'; conversationId: ConversationId; request: string; queue: string; priority: number }
  | { kind: 'offered'; conversationId: ConversationId; request: string; reservation: string; staff: StaffId; expiresAt: number }
  | { kind: 'accepted'; conversationId: ConversationId; request: string; reservation: string; staff: StaffId }
  | { kind: 'declined'; conversationId: ConversationId; request: string; reservation: string; staff: StaffId; why: DeclineReason }
  | { kind: 'timed_out'; conversationId: ConversationId; request: string; reservation: string; staff: StaffId }
  | { kind: 'moved'; conversationId: ConversationId; request: string; to: string }
  | { kind: 'left'; conversationId: ConversationId; request: string; to: 'callback' | 'canceled' | 'done'; staff: StaffId | null }
  | { kind: 'age_alert'; conversationId: ConversationId; request: string; queue: string; waitedMs: number }
  /** A warm transfer was declined or not answered in time: the person who asked passes it on cold. */
  | { kind: 'warm_failed'; conversationId: ConversationId; request: string; from: StaffId; queue: string };

/** An offer waiting for a person's answer. */
export interface Offer {
  reservation: string;
  request: string;
  conversationId: ConversationId;
  staff: StaffId;
  queue: string | null;
  createdAt: number;
  expiresAt: number;
}

/** A person as the router holds them. */
export interface RoutingStaffState {
  staff: StaffId;
  skills: string[];
  capacity: number;
  presence: Presence;
  used: number;
  idleSince: number;
}

/** A request as the router holds it. */
export interface RequestState {
  id: string;
  conversationId: ConversationId;
  status: 'waiting' | 'reserved' | 'assigned' | 'done' | 'left';
  queue: string | null;
  priority: number;
  channel: RouterRequest['channel'];
  skills: string[];
  enqueuedAt: number;
  staff: StaffId | null;
  reservation: string | null;
}

/** Why an answer to an offer was not taken. */
export type OfferRefusal = 'not_found' | 'not_yours' | 'expired' | 'answered' | 'withdrawn';

type StaffRow = { staff_id: string; skills: string; capacity: number; presence: Presence; used: number; idle_since: number | string };
type RequestRow = {
  id: string;
  conversation_id: string;
  seq: number | string;
  channel: RouterRequest['channel'];
  skills: string;
  priority: number;
  safety: number;
  targets: string;
  target_index: number;
  queue: string | null;
  target_deadline: number | string | null;
  enqueued_at: number | string;
  status: RequestState['status'];
  excluded: string;
  staff_id: string | null;
  reservation_id: string | null;
  warm_from: string | null;
  direct: number;
  assigned_at: number | string | null;
  reserved_at: number | string | null;
};
type HoldingRow = { holding_ms: number | string; served: number | string };
type ReservationRow = {
  id: string;
  request_id: string;
  staff_id: string;
  weight: number;
  created_at: number | string;
  expires_at: number | string;
  status: 'pending' | 'accepted' | 'declined' | 'timed_out' | 'canceled';
};

const num = (v: number | string | null): number => (v === null ? 0 : Number(v));

/**
 * A wait told an estimate ends the first time a person joins or its target times out (cut short:
 * it lasted at least this long); the assignment's parameter is `now`.
 */
const WAIT_ENDS = 'waited_ms = CASE WHEN told_k IS NULL OR waited_ms IS NOT NULL THEN waited_ms ELSE ? - enqueued_at END';
const staffOf = (r: StaffRow): RoutingStaffState => ({
  staff: r.staff_id as StaffId,
  skills: JSON.parse(r.skills) as string[],
  capacity: r.capacity,
  presence: r.presence,
  used: r.used,
  idleSince: num(r.idle_since),
});
const requestOf = (r: RequestRow): RequestState => ({
  id: r.id,
  conversationId: r.conversation_id as ConversationId,
  status: r.status,
  queue: r.queue,
  priority: r.priority,
  channel: r.channel,
  skills: JSON.parse(r.skills) as string[],
  enqueuedAt: num(r.enqueued_at),
  staff: r.staff_id as StaffId | null,
  reservation: r.reservation_id,
});

/** An offer's row joined to its request's (the request's columns, the reservation's as `res_*`). */
type OfferRow = RequestRow & {
  res_id: string;
  res_staff_id: string;
  res_weight: number;
  res_created_at: number | string;
  res_expires_at: number | string;
  res_status: ReservationRow['status'];
};

/** Whether `staff` may answer the offer read as `row`: it exists, is theirs, and is still pending. */
function offerOf(
  row: OfferRow | undefined,
  staff: StaffId,
): { ok: true; r: ReservationRow; req: RequestRow } | { ok: false; why: OfferRefusal } {
  // Another person's offer is as invisible as one that does not exist.
  if (row === undefined || row.res_staff_id !== staff) return { ok: false, why: row === undefined ? 'not_found' : 'not_yours' };
  const r: ReservationRow = {
    id: row.res_id,
    request_id: row.id,
    staff_id: row.res_staff_id,
    weight: row.res_weight,
    created_at: row.res_created_at,
    expires_at: row.res_expires_at,
    status: row.res_status,
  };
  if (r.status !== 'pending') {
    return { ok: false, why: r.status === 'timed_out' ? 'expired' : r.status === 'canceled' ? 'withdrawn' : 'answered' };
  }
  return { ok: true, r, req: row };
}

/** What a dispatch reads of a waiting request (the columns of {@link CANDIDATE_COLUMNS}). */
type CandidateRow = Pick<
  RequestRow,
  'id' | 'conversation_id' | 'seq' | 'channel' | 'skills' | 'priority' | 'enqueued_at' | 'queue' | 'excluded'
>;

/** A dispatch's first read: the people with room (dispatch order) and the first page of waiting requests. */
interface FirstRead {
  people: StaffRow[];
  page: CandidateRow[];
  /** A person whose row counts `weight` more than they hold (read with it given back): the dispatch writes it back. */
  credit?: { staff: string; weight: number };
}

/** Whether request `a` comes before `b` in dispatch order (priority, then arrival, then sequence). */
const before = (a: CandidateRow, b: CandidateRow): boolean =>
  a.priority !== b.priority
    ? a.priority > b.priority
    : num(a.enqueued_at) !== num(b.enqueued_at)
      ? num(a.enqueued_at) < num(b.enqueued_at)
      : num(a.seq) < num(b.seq);

/**
 * A page of waiting requests read without `row`, with `row` placed where dispatch order puts it:
 * in the page if it comes before the page's last request or the page is the end of the queue
 * (shorter than `limit`), else not at all (a later page, read after it became visible, has it).
 */
function placeInPage(page: CandidateRow[], row: CandidateRow, limit: number): CandidateRow[] {
  const last = page[page.length - 1];
  if (page.length >= limit && last !== undefined && !before(row, last)) return page;
  const at = page.findIndex((r) => before(row, r));
  return at < 0 ? [...page, row] : [...page.slice(0, at), row, ...page.slice(at)];
}

/** How many requests one dispatch reads first, and at most, at a time while people still have room. */
const FIRST_PAGE = 8;
const MAX_PAGE = 512;
/** The PostgreSQL statements that read the first page (see routing-postgres.ts). */
const DECLINE_AND_READ = declineAndRead(FIRST_PAGE);
const DISPATCH_FIRST_READ = dispatchFirstRead(FIRST_PAGE);

/**
 * The router's durable state and its transitions, on SQLite or PostgreSQL (the same SQL through
 * {@link SqlRunner}). Every transition is one transaction and ends by dispatching, so no free slot
 * stays idle beside an eligible waiting request; a reservation takes its capacity in the
 * transaction that makes it (a conditional UPDATE that cannot overfill), and gives it back only
 * when declined, timed out, cancelled or completed. Who is chosen is core's pure `chooseAssignee`.
 */
export class RoutingStore {
  constructor(
    private readonly sql: SqlRunner,
    private readonly setup: RoutingSetup,
    private readonly newId: (kind: 'request' | 'reservation') => string,
  ) {}

  /** The weight of the lightest item: a person with less room than this can take nothing. */
  private get minWeight(): number {
    return Math.min(this.setup.weights.chat, this.setup.weights.callback);
  }

  /** A person's skills and capacity (from the directory) and presence; entering `available` starts their idle time. */
  setPresence(input: { staff: StaffId; skills: readonly string[]; capacity: number; presence: Presence }, now: number) {
    const { staff, skills, capacity, presence } = input;
    return this.sql.transaction(
      function* (this: RoutingStore) {
        // A person the router has not seen starts offline, so that entering `available` starts their idle time.
        yield run(
          "INSERT INTO routing_staff (staff_id, skills, capacity, presence, used, idle_since) VALUES (?, '[]', 0, 'offline', 0, ?) ON CONFLICT (staff_id) DO NOTHING",
          staff,
          now,
        );
        const before = ((yield lockedAll('wait', 'SELECT * FROM routing_staff WHERE staff_id = ?', staff)) as StaffRow[])[0]!;
        const idle = before.presence !== 'available' ? now : num(before.idle_since);
        yield run(
          'UPDATE routing_staff SET skills = ?, capacity = ?, presence = ?, idle_since = ? WHERE staff_id = ?',
          JSON.stringify(skills),
          capacity,
          presence,
          idle,
          staff,
        );
        return yield* this.dispatch(now);
      }.bind(this),
    );
  }

  /** A hand-off enters its first target; dispatched at once if someone has room. */
  submit(
    conversationId: ConversationId,
    request: Omit<RouterRequest, 'id'>,
    now: number,
    /** People never to offer it to (the person who just passed it on). */
    excluded: readonly string[] = [],
  ): Promise<{ request: string; facts: RoutingFact[] }> {
    const first = request.targets[0];
    if (first?.type !== 'queue') throw new Error('a routing request starts in a queue');
    if (!this.setup.queues.has(first.queue)) throw new Error(`there is no routing queue ${first.queue}`);
    const id = this.newId('request');
    return this.sql.transaction(
      function* (this: RoutingStore) {
        // A conversation waits for one person at a time: an earlier live request is superseded.
        const facts: RoutingFact[] = yield* this.endLive(conversationId, 'canceled', now);
        const seqRows = (yield all('SELECT coalesce(max(seq), 0) AS seq FROM routing_requests')) as Array<{ seq: number | string }>;
        yield run(
          `INSERT INTO routing_requests (id, conversation_id, seq, channel, skills, priority, safety, targets, target_index, queue,
           target_deadline, enqueued_at, status, excluded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, 'waiting', ?)`,
          id,
          conversationId,
          num(seqRows[0]?.seq ?? 0) + 1,
          request.channel,
          JSON.stringify(request.skills),
          request.priority,
          request.safety ? 1 : 0,
          JSON.stringify(request.targets),
          first.queue,
          now + first.timeoutSeconds * 1000,
          now,
          JSON.stringify([...new Set(excluded)]),
        );
        facts.push({ kind: 'queued', conversationId, request: id, queue: first.queue, priority: request.priority });
        facts.push(...(yield* this.dispatch(now)));
        return { request: id, facts };
      }.bind(this),
    );
  }

  /** The person takes the offer: the request is theirs (its capacity stays taken). */
  accept(
    reservation: string,
    staff: StaffId,
    now: number,
  ): Promise<
    | { ok: true; facts: RoutingFact[]; conversationId: ConversationId; warmFrom: StaffId | null }
    | { ok: false; why: OfferRefusal; facts: RoutingFact[] }
  > {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        const found = yield* this.pendingOffer(reservation, staff);
        if (!found.ok) return { ...found, facts: [] };
        const { r, req } = found;
        if (num(r.expires_at) <= now) {
          // The offer lapsed before the sweep saw it: it is a timeout, whoever answers now.
          return { ok: false as const, why: 'expired' as const, facts: yield* this.expire(now) };
        }
        const conversationId = req.conversation_id as ConversationId;
        const facts: RoutingFact[] = [];
        // A warm transfer accepted: the person who asked is done with it.
        if (req.warm_from !== null) facts.push(...(yield* this.endLive(conversationId, 'done', now, req.id)));
        yield run("UPDATE routing_reservations SET status = 'accepted', resolved_at = ? WHERE id = ?", now, r.id);
        yield run(
          `UPDATE routing_requests SET status = 'assigned', assigned_at = ?, reserved_at = ?, reservation_id = NULL, ${WAIT_ENDS} WHERE id = ?`,
          now,
          num(r.created_at),
          now,
          req.id,
        );
        facts.push({ kind: 'accepted', conversationId, request: req.id, reservation: r.id, staff });
        return { ok: true as const, conversationId, warmFrom: req.warm_from as StaffId | null, facts };
      }.bind(this),
    );
  }

  /**
   * A warm transfer: the conversation stays with `from` while it is offered to a named person
   * (who must be available with room) or to a queue's best eligible person, for `timeoutSeconds`.
   * A decline or the timeout ends it as `warm_failed` (the caller then passes it on cold, to
   * `fallbackQueue`); an accept makes the new person the holder and ends `from`'s part.
   */
  offerWarm(
    conversationId: ConversationId,
    input: { from: StaffId; to: { staff: StaffId } | { queue: string }; fallbackQueue: string; timeoutSeconds: number },
    now: number,
  ): Promise<{ ok: true; request: string; facts: RoutingFact[] } | { ok: false; why: 'not_available' | 'no_room' }> {
    const id = this.newId('request');
    const weight = this.setup.weights.chat;
    const { to } = input;
    const queue = 'queue' in to ? to.queue : input.fallbackQueue;
    if (!this.setup.queues.has(queue)) throw new Error(`there is no routing queue ${queue}`);
    const deadline = now + input.timeoutSeconds * 1000;
    return this.sql.transaction(
      function* (this: RoutingStore) {
        // An earlier warm offer of the same conversation is withdrawn; the asker's own assignment stays.
        const facts: RoutingFact[] = yield* this.endWarm(conversationId, now);
        const seqRows = (yield all('SELECT coalesce(max(seq), 0) AS seq FROM routing_requests')) as Array<{ seq: number | string }>;
        const insert = (status: 'waiting' | 'reserved', direct: boolean, staffId: StaffId | null, reservationId: string | null) =>
          run(
            `INSERT INTO routing_requests (id, conversation_id, seq, channel, skills, priority, safety, targets, target_index, queue,
               target_deadline, enqueued_at, status, excluded, staff_id, reservation_id, warm_from, direct)
             VALUES (?, ?, ?, 'chat', '[]', ?, 0, ?, 0, ?, ?, ?, ?, '[]', ?, ?, ?, ?)`,
            id,
            conversationId,
            num(seqRows[0]?.seq ?? 0) + 1,
            // A warm transfer is a person waiting on a person: it goes ahead of the queue's own work.
            900,
            JSON.stringify([{ type: 'queue', queue, timeoutSeconds: input.timeoutSeconds }]),
            queue,
            direct ? null : deadline,
            now,
            status,
            staffId,
            reservationId,
            input.from,
            direct ? 1 : 0,
          );
        if ('queue' in to) {
          yield insert('waiting', false, null, null);
          return { ok: true as const, request: id, facts: [...facts, ...(yield* this.dispatch(now))] };
        }
        const person = ((yield lockedAll('wait', 'SELECT * FROM routing_staff WHERE staff_id = ?', to.staff)) as StaffRow[])[0];
        if (person === undefined || person.presence !== 'available') return { ok: false as const, why: 'not_available' as const };
        if (person.used + weight > person.capacity) return { ok: false as const, why: 'no_room' as const };
        const reservationId = this.newId('reservation');
        yield insert('reserved', true, to.staff, reservationId);
        yield run('UPDATE routing_staff SET used = used + ?, idle_since = ? WHERE staff_id = ?', weight, now, to.staff);
        yield run(
          "INSERT INTO routing_reservations (id, request_id, staff_id, weight, created_at, expires_at, status) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
          reservationId,
          id,
          to.staff,
          weight,
          now,
          deadline,
        );
        facts.push({ kind: 'offered', conversationId, request: id, reservation: reservationId, staff: to.staff, expiresAt: deadline });
        return { ok: true as const, request: id, facts };
      }.bind(this),
    );
  }

  /** The person declines: never offered this request again; it is routed on. */
  decline(reservation: string, staff: StaffId, why: DeclineReason, now: number) {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        // On PostgreSQL one statement reads and locks the offer, carries out a plain decline and
        // reads the dispatch's candidates; what it did not carry out is decided below on the row it locked.
        let applied = false;
        let read: FirstRead | undefined;
        let found: { ok: true; r: ReservationRow; req: RequestRow } | { ok: false; why: OfferRefusal };
        if (this.sql.dialect === 'postgres') {
          const row = (
            (yield all(DECLINE_AND_READ, reservation, staff, now, now, why, now, this.minWeight, this.minWeight)) as Array<{
              offer: string;
              answered_n: number;
              decliner_n: number;
              waiting_n: number;
              people: string;
              page: string;
              waiting: string | null;
            }>
          )[0];
          const offer = row === undefined ? undefined : (JSON.parse(row.offer) as OfferRow);
          found = offerOf(offer, staff);
          const changed = [row?.answered_n ?? 0, row?.decliner_n ?? 0, row?.waiting_n ?? 0];
          applied = changed.every((n) => n === 1);
          if (!applied && changed.some((n) => n !== 0))
            throw new Error(`routing: the decline of ${reservation} applied in part (a lost lock?)`);
          if (applied) {
            if (row?.waiting == null || offer === undefined) throw new Error(`routing: the decline of ${reservation} returned no request`);
            read = {
              people: JSON.parse(row.people) as StaffRow[],
              page: placeInPage(JSON.parse(row.page) as CandidateRow[], JSON.parse(row.waiting) as CandidateRow, FIRST_PAGE),
              // The decliner's slot, not yet given back in the table (see routing-postgres.ts).
              credit: { staff: offer.res_staff_id, weight: offer.res_weight },
            };
          }
        } else {
          found = yield* this.pendingOffer(reservation, staff);
        }
        if (!found.ok) return { ...found, facts: [] as RoutingFact[] };
        const { r, req } = found;
        const expired = num(r.expires_at) <= now;
        const plain = req.direct === 0 && (req.target_deadline === null || num(req.target_deadline) > now);
        // The statement and this code must agree on what a plain decline is.
        if (applied !== (this.sql.dialect === 'postgres' && plain && !expired)) {
          throw new Error(`routing: the decline of ${r.id} ${applied ? 'applied' : 'did not apply'} against its own conditions`);
        }
        if (expired) return { ok: false as const, why: 'expired' as const, facts: yield* this.expire(now) };
        const facts: RoutingFact[] = [
          { kind: 'declined', conversationId: req.conversation_id as ConversationId, request: req.id, reservation: r.id, staff, why },
        ];
        if (!applied) {
          yield run("UPDATE routing_reservations SET status = 'declined', reason = ?, resolved_at = ? WHERE id = ?", why, now, r.id);
          facts.push(...(yield* this.release(r, req, now)));
        }
        facts.push(...(yield* this.dispatch(now, read)));
        return { ok: true as const, facts };
      }.bind(this),
    );
  }

  /** Fires every reservation and target timeout due at `now`; each fires once (its row's status moves on). */
  sweep(now: number): Promise<RoutingFact[]> {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        return yield* this.expire(now);
      }.bind(this),
    );
  }

  /** A person's work on the conversation ended (hand-back, close, transfer): their capacity is free again. */
  complete(conversationId: ConversationId, now: number): Promise<RoutingFact[]> {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        const facts: RoutingFact[] = yield* this.endLive(conversationId, 'done', now);
        return [...facts, ...(yield* this.dispatch(now))];
      }.bind(this),
    );
  }

  /** A person took the conversation themselves (a claim from the queue): any offer of it is withdrawn, and it counts on them. */
  assignDirect(conversationId: ConversationId, staff: StaffId, now: number): Promise<RoutingFact[]> {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        const live = yield* this.liveRow(conversationId);
        const facts: RoutingFact[] = [];
        if (live?.status === 'assigned' && live.staff_id === staff) return facts;
        if (live !== undefined) facts.push(...(yield* this.endLive(conversationId, 'canceled', now)));
        const weight = this.setup.weights[live?.channel ?? 'chat'];
        const held = (yield run('UPDATE routing_staff SET used = used + ? WHERE staff_id = ?', weight, staff)) as number;
        if (held === 0) {
          // Someone the router has not seen yet (never set a presence): they hold the item all the same.
          yield run(
            "INSERT INTO routing_staff (staff_id, skills, capacity, presence, used, idle_since) VALUES (?, '[]', 0, 'offline', ?, ?)",
            staff,
            weight,
            now,
          );
        }
        if (live !== undefined) {
          yield run(
            `UPDATE routing_requests SET status = 'assigned', staff_id = ?, assigned_at = ?, reserved_at = ?, ended_at = NULL, ${WAIT_ENDS} WHERE id = ?`,
            staff,
            now,
            now,
            now,
            live.id,
          );
        } else {
          // A person took it without the router (over from the agent, or straight back past the
          // ping-pong cap): an assignment of its own, so that it counts until they let it go.
          const seqRows = (yield all('SELECT coalesce(max(seq), 0) AS seq FROM routing_requests')) as Array<{ seq: number | string }>;
          yield run(
            `INSERT INTO routing_requests (id, conversation_id, seq, channel, skills, priority, safety, targets, target_index, queue,
               target_deadline, enqueued_at, status, excluded, staff_id, assigned_at)
             VALUES (?, ?, ?, 'chat', '[]', 0, 0, '[]', 0, NULL, NULL, ?, 'assigned', '[]', ?, ?)`,
            this.newId('request'),
            conversationId,
            num(seqRows[0]?.seq ?? 0) + 1,
            now,
            staff,
            now,
          );
        }
        return [...facts, ...(yield* this.dispatch(now))];
      }.bind(this),
    );
  }

  /** Offers waiting for `staff`'s answer, oldest first. */
  offersFor(staff: StaffId): Promise<Offer[]> {
    return this.sql.transaction(function* () {
      const rows = (yield all(
        `SELECT r.id AS reservation, r.request_id, r.staff_id, r.created_at, r.expires_at, q.conversation_id, q.queue
         FROM routing_reservations r JOIN routing_requests q ON q.id = r.request_id
         WHERE r.staff_id = ? AND r.status = 'pending' ORDER BY r.created_at, r.id`,
        staff,
      )) as Array<Record<string, unknown>>;
      return rows.map((row) => ({
        reservation: String(row.reservation),
        request: String(row.request_id),
        conversationId: String(row.conversation_id) as ConversationId,
        staff: String(row.staff_id) as StaffId,
        queue: row.queue === null ? null : String(row.queue),
        createdAt: Number(row.created_at),
        expiresAt: Number(row.expires_at),
      }));
    });
  }

  /**
   * Offers accepted (the request assigned) at or before `before` whose conversation is still
   * waiting in its queue: the process that accepted died before its claim. Oldest first.
   */
  acceptedUnclaimed(before: number, limit = 100): Promise<Array<{ conversationId: ConversationId; staff: StaffId }>> {
    return this.sql.transaction(function* () {
      const rows = (yield all(
        `SELECT r.conversation_id, r.staff_id FROM routing_requests r JOIN conversations c ON c.id = r.conversation_id
         WHERE r.status = 'assigned' AND r.staff_id IS NOT NULL AND r.assigned_at <= ? AND c.state = 'QUEUED'
         ORDER BY r.assigned_at LIMIT ?`,
        before,
        limit,
      )) as Array<{ conversation_id: string; staff_id: string }>;
      return rows.map((r) => ({ conversationId: r.conversation_id as ConversationId, staff: r.staff_id as StaffId }));
    });
  }

  /** The conversation's live request (waiting, reserved or assigned), if any. */
  liveRequest(conversationId: ConversationId): Promise<RequestState | null> {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        const row = yield* this.liveRow(conversationId);
        return row === undefined ? null : requestOf(row);
      }.bind(this),
    );
  }

  /** Requests ahead of a waiting one in its queue (dispatch order), and everyone the router holds. */
  standing(conversationId: ConversationId): Promise<{ request: RequestState; ahead: number; staff: RoutingStaffState[] } | null> {
    return this.sql.transaction(
      function* (this: RoutingStore) {
        const row = yield* this.liveRow(conversationId);
        if (row === undefined) return null;
        const ahead = (yield all(
          `SELECT count(*) AS n FROM routing_requests WHERE status = 'waiting' AND queue = ?
           AND (priority > ? OR (priority = ? AND (enqueued_at < ? OR (enqueued_at = ? AND seq < ?))))`,
          row.queue,
          row.priority,
          row.priority,
          num(row.enqueued_at),
          num(row.enqueued_at),
          num(row.seq),
        )) as Array<{ n: number | string }>;
        const staff = ((yield all('SELECT * FROM routing_staff')) as StaffRow[]).map(staffOf);
        return { request: requestOf(row), ahead: num(ahead[0]?.n ?? 0), staff };
      }.bind(this),
    );
  }

  /** Everyone the router holds. */
  staff(): Promise<RoutingStaffState[]> {
    return this.sql.transaction(function* () {
      return ((yield all('SELECT * FROM routing_staff ORDER BY staff_id')) as StaffRow[]).map(staffOf);
    });
  }

  /**
   * A queue's own history, the wait estimate's input (`estimateWait`): its moving mean of holding
   * time, and its newest `historySize` waits told an estimate with how long each lasted.
   */
  waitHistory(queue: string, windows: { historySize: number }): Promise<QueueHistory> {
    return this.sql.transaction(function* () {
      const holding = (yield all('SELECT holding_ms, served FROM routing_queue_holding WHERE queue = ?', queue)) as HoldingRow[];
      const waits = (yield all(
        `SELECT told_k, told_scale_ms, waited_ms FROM routing_requests
         WHERE told_queue = ? AND waited_ms IS NOT NULL ORDER BY seq DESC LIMIT ?`,
        queue,
        windows.historySize,
      )) as Array<{ told_k: number | string; told_scale_ms: number | string; waited_ms: number | string }>;
      const h = holding[0];
      return {
        holdingMs: h === undefined || num(h.served) === 0 ? null : num(h.holding_ms),
        waits: waits.map((w) => ({ k: num(w.told_k), scaleMs: num(w.told_scale_ms), waitedMs: num(w.waited_ms) })),
      };
    });
  }

  /**
   * The customer waiting on `request` was told an estimate for `queue` at `now`, from this model:
   * its wait, when it ends, is scored against it. The router then keeps what it promised: the wait
   * stays in its queue at least until the promise (`now + promiseMs`), even past the queue's own
   * timeout, so that it is not moved to a fallback or a callback while a person was promised.
   */
  noteEstimate(request: string, queue: string, model: { k: number; scaleMs: number; promiseMs: number }, now: number): Promise<void> {
    // Whole milliseconds: the deadline is a BIGINT (a promise is a quantile, a fraction of a millisecond).
    const until = Math.ceil(now + model.promiseMs);
    return this.sql.transaction(function* () {
      yield run(
        `UPDATE routing_requests SET told_queue = ?, told_k = ?, told_scale_ms = ?,
           target_deadline = CASE WHEN target_deadline IS NOT NULL AND target_deadline < ? THEN ? ELSE target_deadline END
         WHERE id = ? AND status IN ('waiting', 'reserved')`,
        queue,
        model.k,
        model.scaleMs,
        until,
        until,
        request,
      );
    });
  }

  /**
   * The earliest time the sweep has something to fire, if any: a reservation's or a target's
   * deadline, or a wait reaching the queue-age threshold (the router's timer jobs are scheduled at it).
   */
  nextDeadline(): Promise<number | null> {
    const ageAlertMs = this.setup.ageAlertMs;
    return this.sql.transaction(function* () {
      const r = (yield all("SELECT min(expires_at) AS at FROM routing_reservations WHERE status = 'pending'")) as Array<{ at: unknown }>;
      const q = (yield all("SELECT min(target_deadline) AS at FROM routing_requests WHERE status = 'waiting'")) as Array<{
        at: unknown;
      }>;
      const times = [r[0]?.at, q[0]?.at];
      if (ageAlertMs !== undefined) {
        const a = (yield all("SELECT min(enqueued_at) AS at FROM routing_requests WHERE status = 'waiting' AND age_alerted = 0")) as Array<{
          at: unknown;
        }>;
        const at = a[0]?.at;
        if (at !== null && at !== undefined) times.push(Number(at) + ageAlertMs);
      }
      const known = times.filter((x) => x !== null && x !== undefined).map(Number);
      return known.length === 0 ? null : Math.min(...known);
    });
  }

  // ——— steps inside a transaction ———

  private *liveRow(conversationId: ConversationId): SqlBody<RequestRow | undefined> {
    const rows = (yield lockedAll(
      'wait',
      "SELECT * FROM routing_requests WHERE conversation_id = ? AND status IN ('waiting', 'reserved', 'assigned') ORDER BY seq DESC LIMIT 1",
      conversationId,
    )) as RequestRow[];
    return rows[0];
  }

  private *pendingOffer(
    reservation: string,
    staff: StaffId,
  ): SqlBody<{ ok: true; r: ReservationRow; req: RequestRow } | { ok: false; why: OfferRefusal }> {
    // The offer and its request, read and locked in one statement.
    const rows = (yield lockedAll(
      'wait',
      `SELECT q.*, r.id AS res_id, r.staff_id AS res_staff_id, r.weight AS res_weight, r.created_at AS res_created_at,
         r.expires_at AS res_expires_at, r.status AS res_status
       FROM routing_reservations r JOIN routing_requests q ON q.id = r.request_id WHERE r.id = ?`,
      reservation,
    )) as OfferRow[];
    return offerOf(rows[0], staff);
  }

  /** Ends the conversation's live requests (all of them, but `except`): an assignment is done, a wait or an offer is cancelled. */
  private *endLive(conversationId: ConversationId, as: 'done' | 'canceled', now: number, except?: string): SqlBody<RoutingFact[]> {
    const rows = (yield lockedAll(
      'wait',
      "SELECT * FROM routing_requests WHERE conversation_id = ? AND status IN ('waiting', 'reserved', 'assigned') ORDER BY seq",
      conversationId,
    )) as RequestRow[];
    const facts: RoutingFact[] = [];
    for (const live of rows) {
      if (live.id === except) continue;
      facts.push(yield* this.endOne(live, as, now));
    }
    return facts;
  }

  /** Withdraws the conversation's pending warm offer, if any. */
  private *endWarm(conversationId: ConversationId, now: number): SqlBody<RoutingFact[]> {
    const rows = (yield lockedAll(
      'wait',
      "SELECT * FROM routing_requests WHERE conversation_id = ? AND status IN ('waiting', 'reserved') AND warm_from IS NOT NULL",
      conversationId,
    )) as RequestRow[];
    const facts: RoutingFact[] = [];
    for (const live of rows) facts.push(yield* this.endOne(live, 'canceled', now));
    return facts;
  }

  private *endOne(live: RequestRow, as: 'done' | 'canceled', now: number): SqlBody<RoutingFact> {
    const weight = this.setup.weights[live.channel];
    if (live.status === 'reserved' && live.reservation_id !== null) {
      const r = ((yield lockedAll('wait', 'SELECT * FROM routing_reservations WHERE id = ?', live.reservation_id)) as ReservationRow[])[0];
      if (r !== undefined) {
        yield run("UPDATE routing_reservations SET status = 'canceled', resolved_at = ? WHERE id = ?", now, r.id);
        yield run('UPDATE routing_staff SET used = used - ? WHERE staff_id = ?', r.weight, r.staff_id);
      }
    }
    if (live.status === 'assigned' && live.staff_id !== null) {
      yield run('UPDATE routing_staff SET used = used - ? WHERE staff_id = ?', weight, live.staff_id);
    }
    const status = live.status === 'assigned' && as === 'done' ? 'done' : 'left';
    yield run('UPDATE routing_requests SET status = ?, ended_at = ?, reservation_id = NULL WHERE id = ?', status, now, live.id);
    // A served item: its queue's moving mean of holding takes it in (the wait estimate's input).
    if (status === 'done' && live.queue !== null && live.assigned_at !== null)
      yield* this.takeHolding(live.queue, now - num(live.reserved_at ?? live.assigned_at));
    return {
      kind: 'left',
      conversationId: live.conversation_id as ConversationId,
      request: live.id,
      to: status === 'done' ? 'done' : 'canceled',
      staff: live.staff_id as StaffId | null,
    };
  }

  /** Folds one served item's holding time into its queue's moving mean (`nextHolding`, as the simulator's). */
  private *takeHolding(queue: string, heldMs: number): SqlBody<void> {
    yield run('INSERT INTO routing_queue_holding (queue, holding_ms, served) VALUES (?, 0, 0) ON CONFLICT (queue) DO NOTHING', queue);
    const row = (
      (yield lockedAll('wait', 'SELECT holding_ms, served FROM routing_queue_holding WHERE queue = ?', queue)) as HoldingRow[]
    )[0];
    const previous = row === undefined || num(row.served) === 0 ? null : { holdingMs: num(row.holding_ms), served: num(row.served) };
    const next = nextHolding(previous, heldMs);
    yield run('UPDATE routing_queue_holding SET holding_ms = ?, served = ? WHERE queue = ?', next.holdingMs, next.served, queue);
  }

  /** A reservation ends unanswered or declined: capacity back, the person excluded, the request waits again. */
  private *release(r: ReservationRow, req: RequestRow, now: number): SqlBody<RoutingFact[]> {
    yield run('UPDATE routing_staff SET used = used - ? WHERE staff_id = ?', r.weight, r.staff_id);
    // A warm offer to one named person ends with their answer (or silence).
    if (req.direct === 1) return yield* this.warmFailed(req, now);
    const excluded = new Set(JSON.parse(req.excluded) as string[]);
    excluded.add(r.staff_id);
    yield run(
      "UPDATE routing_requests SET status = 'waiting', reservation_id = NULL, staff_id = NULL, excluded = ? WHERE id = ?",
      JSON.stringify([...excluded]),
      req.id,
    );
    if (req.target_deadline !== null && num(req.target_deadline) <= now) return yield* this.moveOn(req, now);
    return [];
  }

  /** The request's target timed out: the next target (a fallback queue), else it leaves for a callback. */
  private *moveOn(req: RequestRow, now: number): SqlBody<RoutingFact[]> {
    const targets = JSON.parse(req.targets) as RoutingTarget[];
    const index = req.target_index + 1;
    const next = targets[index];
    const conversationId = req.conversation_id as ConversationId;
    if (req.warm_from !== null) return yield* this.warmFailed(req, now);
    if (next?.type === 'queue' && this.setup.queues.has(next.queue)) {
      yield run(
        `UPDATE routing_requests SET target_index = ?, queue = ?, target_deadline = ?, ${WAIT_ENDS} WHERE id = ?`,
        index,
        next.queue,
        now + next.timeoutSeconds * 1000,
        now,
        req.id,
      );
      return [{ kind: 'moved', conversationId, request: req.id, to: next.queue }];
    }
    // Out of queues to try: it becomes a callback — it stays in its last queue, without a deadline,
    // weighing what a callback weighs, and is offered to the next eligible person with room for it.
    yield run(
      `UPDATE routing_requests SET target_index = ?, target_deadline = NULL, channel = 'callback', ${WAIT_ENDS} WHERE id = ?`,
      index,
      now,
      req.id,
    );
    return [{ kind: 'moved', conversationId, request: req.id, to: 'callback' }];
  }

  private *warmFailed(req: RequestRow, now: number): SqlBody<RoutingFact[]> {
    yield run(
      "UPDATE routing_requests SET status = 'left', staff_id = NULL, reservation_id = NULL, target_deadline = NULL, ended_at = ? WHERE id = ?",
      now,
      req.id,
    );
    const conversationId = req.conversation_id as ConversationId;
    return [
      { kind: 'left', conversationId, request: req.id, to: 'canceled', staff: null },
      { kind: 'warm_failed', conversationId, request: req.id, from: req.warm_from as StaffId, queue: req.queue ?? '' },
    ];
  }

  private *expire(now: number): SqlBody<RoutingFact[]> {
    const facts: RoutingFact[] = [];
    // Offers another router is answering or timing out right now are skipped: it finishes them.
    const lapsed = (yield lockedAll(
      'skip',
      "SELECT * FROM routing_reservations WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at, id",
      now,
    )) as ReservationRow[];
    for (const r of lapsed) {
      const req = ((yield lockedAll('wait', 'SELECT * FROM routing_requests WHERE id = ?', r.request_id)) as RequestRow[])[0]!;
      yield run("UPDATE routing_reservations SET status = 'timed_out', resolved_at = ? WHERE id = ?", now, r.id);
      facts.push({
        kind: 'timed_out',
        conversationId: req.conversation_id as ConversationId,
        request: req.id,
        reservation: r.id,
        staff: r.staff_id as StaffId,
      });
      facts.push(...(yield* this.release(r, req, now)));
    }
    const overdue = (yield lockedAll(
      'skip',
      "SELECT * FROM routing_requests WHERE status = 'waiting' AND target_deadline <= ? ORDER BY target_deadline, seq",
      now,
    )) as RequestRow[];
    for (const req of overdue) facts.push(...(yield* this.moveOn(req, now)));
    facts.push(...(yield* this.dispatch(now)));
    if (this.setup.ageAlertMs !== undefined) {
      const old = (yield lockedAll(
        'skip',
        "SELECT * FROM routing_requests WHERE status = 'waiting' AND age_alerted = 0 AND enqueued_at <= ? ORDER BY enqueued_at, seq",
        now - this.setup.ageAlertMs,
      )) as RequestRow[];
      for (const req of old) {
        yield run('UPDATE routing_requests SET age_alerted = 1 WHERE id = ?', req.id);
        facts.push({
          kind: 'age_alert',
          conversationId: req.conversation_id as ConversationId,
          request: req.id,
          queue: req.queue ?? '',
          waitedMs: now - num(req.enqueued_at),
        });
      }
    }
    return facts;
  }

  /** Offers waiting requests, in dispatch order, to whoever has room. */
  private *dispatch(now: number, read?: FirstRead): SqlBody<RoutingFact[]> {
    const credit = read?.credit === undefined ? undefined : { ...read.credit, open: true };
    const facts = yield* this.offerWaiting(now, read, credit);
    // Room given back that no reservation took: written now, in the same transaction.
    if (credit?.open === true) {
      const freed = (yield run('UPDATE routing_staff SET used = used - ? WHERE staff_id = ?', credit.weight, credit.staff)) as number;
      if (freed !== 1) throw new Error(`routing: ${credit.staff} vanished inside the routing transaction (a lost lock?)`);
    }
    return facts;
  }

  private *offerWaiting(
    now: number,
    read: FirstRead | undefined,
    credit: { staff: string; weight: number; open: boolean } | undefined,
  ): SqlBody<RoutingFact[]> {
    const facts: RoutingFact[] = [];
    const minWeight = this.minWeight;
    // People and requests another router holds right now are skipped: that router decides on them.
    // (`used < capacity` is the predicate of the partial index routing_staff_open.) On PostgreSQL
    // the people and the first page of requests are read in one statement.
    let people: StaffRow[];
    let firstPage: CandidateRow[] | null = null;
    if (read !== undefined) {
      // Read by the statement of the transition that ends in this dispatch.
      people = read.people;
      firstPage = read.page;
    } else if (this.sql.dialect === 'postgres') {
      const read = ((yield all(DISPATCH_FIRST_READ, minWeight)) as Array<{ staff: string; requests: string }>)[0]!;
      people = JSON.parse(read.staff) as StaffRow[];
      firstPage = JSON.parse(read.requests) as CandidateRow[];
    } else {
      people = (yield lockedAll(
        'skip',
        "SELECT * FROM routing_staff WHERE presence = 'available' AND used < capacity ORDER BY idle_since, staff_id",
      )) as StaffRow[];
    }
    const open = people.filter((s) => s.used + minWeight <= s.capacity).map(staffOf);
    if (open.length === 0) return facts;
    const candidates = new Map<string, AssigneeCandidate & { used: number }>(
      open.map((s) => [
        s.staff,
        { staff: { id: s.staff, skills: s.skills, capacity: s.capacity }, presence: s.presence, idleSinceMs: s.idleSince, used: s.used },
      ]),
    );
    let after: { priority: number; enqueuedAt: number; seq: number } | null = null;
    // Small pages first: usually the first waiting request someone can take is near the front.
    let limit = FIRST_PAGE;
    for (;;) {
      let page: CandidateRow[];
      if (after === null && firstPage !== null) page = firstPage;
      else if (after === null) {
        page = (yield lockedAll(
          'skip',
          `SELECT ${CANDIDATE_COLUMNS} FROM routing_requests WHERE status = 'waiting' ORDER BY priority DESC, enqueued_at, seq LIMIT ?`,
          limit,
        )) as CandidateRow[];
      } else {
        page = (yield lockedAll(
          'skip',
          `SELECT ${CANDIDATE_COLUMNS} FROM routing_requests WHERE status = 'waiting'
             AND (priority < ? OR (priority = ? AND (enqueued_at > ? OR (enqueued_at = ? AND seq > ?))))
           ORDER BY priority DESC, enqueued_at, seq LIMIT ?`,
          after.priority,
          after.priority,
          after.enqueuedAt,
          after.enqueuedAt,
          after.seq,
          limit,
        )) as CandidateRow[];
      }
      for (const req of page) {
        if (candidates.size === 0) return facts;
        const queue = req.queue === null ? undefined : this.setup.queues.get(req.queue);
        if (queue === undefined) continue;
        const skills = [...new Set([...queue.skills, ...(JSON.parse(req.skills) as string[])])];
        const anyOf = this.setup.anySkills?.get(queue.id) ?? [];
        const list = [...candidates.values()].filter((c) => anyOf.length === 0 || anyOf.some((s) => c.staff.skills.includes(s)));
        const load = new Map(list.map((c) => [c.staff.id, c.used]));
        const choice = chooseAssignee(
          { skills, channel: req.channel, excluded: new Set(JSON.parse(req.excluded) as string[]) },
          list,
          load,
          { weights: this.setup.weights, order: queue.order },
        );
        if (choice.type !== 'chosen') continue;
        const weight = this.setup.weights[req.channel];
        const id = this.newId('reservation');
        const expiresAt = now + queue.reservationTimeoutSeconds * 1000;
        // The capacity is taken here, in the transaction that makes the reservation, and only if it is still free.
        if (this.sql.dialect === 'postgres') {
          // One statement: the slot taken, the offer made, the request reserved — all or none.
          // A person read with room given back (a decliner) gets it back in this same write.
          const back = credit?.open === true && credit.staff === choice.staffId ? credit.weight : 0;
          if (back > 0) credit!.open = false;
          const reserved = (yield run(
            `WITH taken AS (
               UPDATE routing_staff SET used = used + ? - ?, idle_since = ?
               WHERE staff_id = ? AND presence = 'available' AND used + ? - ? <= capacity RETURNING staff_id),
             offered AS (
               INSERT INTO routing_reservations (id, request_id, staff_id, weight, created_at, expires_at, status)
               SELECT ?, ?, staff_id, ?, ?, ?, 'pending' FROM taken RETURNING id)
             UPDATE routing_requests SET status = 'reserved', reservation_id = ?, staff_id = ?
             WHERE id = ? AND status = 'waiting' AND EXISTS (SELECT 1 FROM offered)`,
            weight,
            back,
            now,
            choice.staffId,
            weight,
            back,
            id,
            req.id,
            weight,
            now,
            expiresAt,
            id,
            choice.staffId,
            req.id,
          )) as number;
          if (reserved !== 1)
            throw new Error(`routing: the reservation of ${req.id} for ${choice.staffId} did not apply in full (a lost lock?)`);
        } else {
          const taken = (yield run(
            "UPDATE routing_staff SET used = used + ?, idle_since = ? WHERE staff_id = ? AND presence = 'available' AND used + ? <= capacity",
            weight,
            now,
            choice.staffId,
            weight,
          )) as number;
          if (taken !== 1) throw new Error(`routing: ${choice.staffId} had no room for a reservation the router chose (a lost lock?)`);
          yield run(
            "INSERT INTO routing_reservations (id, request_id, staff_id, weight, created_at, expires_at, status) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
            id,
            req.id,
            choice.staffId,
            weight,
            now,
            expiresAt,
          );
          const moved = (yield run(
            "UPDATE routing_requests SET status = 'reserved', reservation_id = ?, staff_id = ? WHERE id = ? AND status = 'waiting'",
            id,
            choice.staffId,
            req.id,
          )) as number;
          if (moved !== 1) throw new Error(`routing: request ${req.id} stopped waiting inside the routing transaction (a lost lock?)`);
        }
        facts.push({
          kind: 'offered',
          conversationId: req.conversation_id as ConversationId,
          request: req.id,
          reservation: id,
          staff: choice.staffId as StaffId,
          expiresAt,
        });
        const c = candidates.get(choice.staffId)!;
        c.used += weight;
        c.idleSinceMs = now;
        if (c.used + minWeight > c.staff.capacity) candidates.delete(choice.staffId);
      }
      if (page.length < limit || candidates.size === 0) return facts;
      const last = page[page.length - 1]!;
      after = { priority: last.priority, enqueuedAt: num(last.enqueued_at), seq: num(last.seq) };
      limit = Math.min(MAX_PAGE, limit * 4);
    }
  }
}
