/**
 * The routing transactions' statements that PostgreSQL runs as one round trip where SQLite runs
 * several (SQLite's statements cost no round trip; on PostgreSQL every statement does — a socket
 * write and a wake-up of the server process on both sides — and a routing decision was mostly
 * those). Each is one statement, so each is atomic on its own; the transaction around it holds
 * the locks it takes until the commit. `?` placeholders, as in every routing statement.
 *
 * The page's size is written into the text, not passed: these statements are prepared once per
 * connection, and PostgreSQL plans a prepared statement once (a generic plan) only when that plan
 * is estimated no dearer than planning it for each call's values — which a `LIMIT $n`, estimated
 * as a tenth of the table, never is. Planned for every call, they cost more server time than
 * they save round trips.
 */

/** The columns of a waiting request that a dispatch reads: what it chooses by, and what it reports. */
export const CANDIDATE_COLUMNS = 'id, conversation_id, seq, channel, skills, priority, enqueued_at, queue, excluded';

/** The candidate columns of the table aliased `alias`. */
const qualified = (alias: string) =>
  CANDIDATE_COLUMNS.split(', ')
    .map((c) => `${alias}.${c}`)
    .join(', ');

/** A page size as SQL text: a positive integer from the code, never from a caller. */
function limit(pageSize: number): string {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`routing: a page of ${pageSize} requests`);
  return String(pageSize);
}

/**
 * A decline and the dispatch's first read in one statement. The offer and its request are read
 * and locked; when it is a plain decline (the answer of the person it was made to, still pending,
 * not lapsed, not a warm offer to one named person, its target not past its deadline) the decline
 * is carried out — the offer answered, the slot given back, the request waiting again with the
 * person excluded — and the candidates for the dispatch that follows are read and locked as
 * {@link DISPATCH_FIRST_READ} reads them.
 *
 * The decliner's row is locked but not written: they are returned with their room back (`used`
 * less the offer's weight), and the caller gives that room back in the same write that takes it
 * again — the reservation the dispatch makes for them, or, when it makes none, one UPDATE before
 * the commit. A person whose row went from full to having room and back within one transaction
 * would leave a dead entry in the partial index of people with room (routing_staff_open) on every
 * decision, which every later read of that index steps over until a vacuum.
 *
 * A statement sees the rows as they were when it began, so the request it just changed comes from
 * its own change (`RETURNING`): waiting again — returned on its own, for the caller to place in
 * the page in dispatch order, since the page was read without it.
 *
 * Returns the offer's row as it was when locked (as JSON); how many rows each step touched (all 1,
 * or all 0 when it was not a plain decline: the caller then decides on the row, still locked, as
 * for any other answer, and no candidate was read); the people, the page and the request as JSON.
 *
 * Parameters: reservation, staff, now, now, reason, now, the lightest item's weight (twice).
 */
export const declineAndRead = (pageSize: number) => `WITH o AS MATERIALIZED (
    SELECT q.*, r.id AS res_id, r.staff_id AS res_staff_id, r.weight AS res_weight, r.created_at AS res_created_at,
      r.expires_at AS res_expires_at, r.status AS res_status
    FROM routing_reservations r JOIN routing_requests q ON q.id = r.request_id WHERE r.id = ? FOR UPDATE),
  plain AS MATERIALIZED (
    SELECT id, res_id, res_staff_id, res_weight FROM o
    WHERE res_staff_id = ? AND res_status = 'pending' AND res_expires_at > ? AND direct = 0
      AND (target_deadline IS NULL OR target_deadline > ?)),
  answered AS (
    UPDATE routing_reservations r SET status = 'declined', reason = ?, resolved_at = ?
    FROM plain WHERE r.id = plain.res_id RETURNING r.id),
  decliner AS MATERIALIZED (
    SELECT s.staff_id, s.skills, s.capacity, s.presence, s.used - plain.res_weight AS used, s.idle_since
    FROM routing_staff s JOIN plain ON s.staff_id = plain.res_staff_id FOR UPDATE OF s),
  waits AS (
    UPDATE routing_requests q SET status = 'waiting', reservation_id = NULL, staff_id = NULL,
      excluded = CASE WHEN q.excluded::jsonb @> jsonb_build_array(plain.res_staff_id) THEN q.excluded
                      ELSE (q.excluded::jsonb || jsonb_build_array(plain.res_staff_id))::text END
    FROM plain WHERE q.id = plain.id RETURNING ${qualified('q')}),
  others AS MATERIALIZED (
    SELECT staff_id, skills, capacity, presence, used, idle_since FROM routing_staff
    WHERE presence = 'available' AND used < capacity AND used + ? <= capacity
      AND EXISTS (SELECT 1 FROM plain) AND staff_id <> (SELECT res_staff_id FROM plain)
    ORDER BY idle_since, staff_id FOR UPDATE SKIP LOCKED),
  people AS MATERIALIZED (
    SELECT * FROM decliner WHERE presence = 'available' AND used + ? <= capacity UNION ALL SELECT * FROM others),
  page AS MATERIALIZED (
    SELECT ${CANDIDATE_COLUMNS} FROM routing_requests WHERE status = 'waiting' AND EXISTS (SELECT 1 FROM people)
    ORDER BY priority DESC, enqueued_at, seq LIMIT ${limit(pageSize)} FOR UPDATE SKIP LOCKED)
SELECT row_to_json(o)::text AS offer, (SELECT count(*) FROM answered)::int AS answered_n, (SELECT count(*) FROM decliner)::int AS decliner_n,
  (SELECT count(*) FROM waits)::int AS waiting_n,
  (SELECT coalesce(json_agg(people ORDER BY idle_since, staff_id), '[]') FROM people)::text AS people,
  (SELECT coalesce(json_agg(page ORDER BY priority DESC, enqueued_at, seq), '[]') FROM page)::text AS page,
  (SELECT row_to_json(waits) FROM waits)::text AS waiting
FROM o`;

/**
 * A dispatch's first read: the people with room for the lightest item and the first page of waiting requests, each
 * locked `SKIP LOCKED` (another router's candidates are skipped, never waited for), as two JSON
 * arrays in their dispatch orders. The page is read only when someone has room, so that a
 * transition that frees nobody locks no waiting request. Parameter: the lightest item's weight.
 */
export const dispatchFirstRead = (pageSize: number) => `WITH s AS MATERIALIZED (
    SELECT * FROM routing_staff WHERE presence = 'available' AND used < capacity AND used + ? <= capacity
    ORDER BY idle_since, staff_id FOR UPDATE SKIP LOCKED),
  q AS MATERIALIZED (
    SELECT ${CANDIDATE_COLUMNS} FROM routing_requests WHERE status = 'waiting' AND EXISTS (SELECT 1 FROM s)
    ORDER BY priority DESC, enqueued_at, seq LIMIT ${limit(pageSize)} FOR UPDATE SKIP LOCKED)
SELECT (SELECT coalesce(json_agg(s ORDER BY idle_since, staff_id), '[]') FROM s)::text AS staff,
  (SELECT coalesce(json_agg(q ORDER BY priority DESC, enqueued_at, seq), '[]') FROM q)::text AS requests`;
