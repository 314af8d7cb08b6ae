import type { StoredEvent } from '../../../src/core/index.js';
import type { Colleague } from '../../../src/server/staff-stream-protocol.js';
import { duration, personName, words } from './describe.js';

/** One warm transfer as the log tells it. */
export interface WarmTransfer {
  request: string;
  /** The offers made for it, each with its outcome. */
  offers: Array<{ staff: string; expiresAt: string; outcome: 'pending' | 'accepted' | 'declined' | 'timed_out'; why?: string }>;
  /** Declined or unanswered: passed on cold to this queue. */
  wentCold: string | null;
}

type Note = Extract<StoredEvent, { type: 'routing.noted' }>;

/**
 * The warm transfers of a conversation, from the log's `routing.noted` entries: a router request
 * whose offer was made while a person owned the conversation is a warm one (a queue's own offers
 * are made while it waits in the queue), and so is any request that ends `warm_failed`.
 */
export function warmTransfers(events: readonly StoredEvent[]): WarmTransfer[] {
  const byRequest = new Map<string, WarmTransfer>();
  let ownerIsHuman = false;
  const get = (request: string) => {
    let w = byRequest.get(request);
    if (!w) byRequest.set(request, (w = { request, offers: [], wentCold: null }));
    return w;
  };
  for (const e of events) {
    const owner = (e.data as { owner?: { type?: string } }).owner;
    if (e.type !== 'routing.noted') {
      if (owner && 'version' in e.data) ownerIsHuman = owner.type === 'human';
      continue;
    }
    const n = (e as Note).data;
    if (n.kind === 'offered' && (ownerIsHuman || byRequest.has(n.request))) {
      get(n.request).offers.push({ staff: n.staff, expiresAt: n.expiresAt, outcome: 'pending' });
    } else if ((n.kind === 'accepted' || n.kind === 'declined' || n.kind === 'timed_out') && byRequest.has(n.request)) {
      const offer = get(n.request).offers.findLast((o) => o.staff === n.staff && o.outcome === 'pending');
      if (offer) {
        offer.outcome = n.kind;
        if (n.kind === 'declined') offer.why = n.why;
      }
    } else if (n.kind === 'warm_failed') {
      get(n.request).wentCold = n.queue;
    }
  }
  return [...byRequest.values()];
}

const OUTCOME = { accepted: 'accepted', declined: 'declined', timed_out: 'not answered in time' } as const;

/** What became of this conversation's warm transfers; while one is pending, the console says so. */
export function WarmStatus(props: {
  events: readonly StoredEvent[];
  people: ReadonlyMap<string, Colleague>;
  me: string;
  now: number;
  /** A warm transfer just asked for here, to a queue, that has no offer in the log yet. */
  asked: { request: string; to: string } | null;
}) {
  const transfers = warmTransfers(props.events);
  const waitingForQueue = props.asked && !transfers.some((t) => t.request === props.asked!.request) ? props.asked : null;
  if (transfers.length === 0 && !waitingForQueue) return null;
  return (
    <section className="warm" aria-labelledby="warm-title" data-testid="warm">
      <h2 id="warm-title">Warm transfers</h2>
      <ul>
        {waitingForQueue && (
          <li className="pending" data-testid="warm-pending">
            Offered warm to {words(waitingForQueue.to)}: waiting for someone to accept. It stays yours until then.
          </li>
        )}
        {transfers.map((t) =>
          t.offers.length === 0 ? (
            <li key={t.request} className="timed_out" data-testid="warm-outcome">
              Warm transfer: nobody accepted in time.{t.wentCold ? ` It went cold to ${words(t.wentCold)}.` : ''}
            </li>
          ) : (
            t.offers.map((o, i) => (
              <li key={`${t.request}-${i}`} className={o.outcome} data-testid={o.outcome === 'pending' ? 'warm-pending' : 'warm-outcome'}>
                Warm transfer to {personName(o.staff, props.people, props.me)}:{' '}
                {o.outcome === 'pending'
                  ? `waiting for their answer (${duration(Math.max(0, Date.parse(o.expiresAt) - props.now))} left); it stays yours until then.`
                  : `${OUTCOME[o.outcome]}${o.why ? ` (${words(o.why)})` : ''}.`}
                {i === t.offers.length - 1 && t.wentCold ? ` It went cold to ${words(t.wentCold)}.` : ''}
              </li>
            ))
          ),
        )}
      </ul>
    </section>
  );
}
