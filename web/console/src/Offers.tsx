import { useState } from 'react';
import type { OfferItem } from '../../../src/server/staff-stream-protocol.js';
import { call } from './api.js';
import { useStream } from './App.js';
import { duration, intentText, words } from './describe.js';
import { useNow } from './QueueView.js';
import type { ConsoleStream } from './stream.js';

const DECLINE_REASONS = [
  ['busy', 'Busy'],
  ['wrong_skill', 'Wrong skill'],
  ['end_of_shift', 'End of shift'],
  ['other', 'Other'],
] as const;

function Offer({ offer, stream, now }: { offer: OfferItem; stream: ConsoleStream; now: number }) {
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState<(typeof DECLINE_REASONS)[number][0]>('busy');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const left = Date.parse(offer.expiresAt) - now;
  const what = intentText(offer.intent);
  const answer = async (path: 'accept' | 'decline') => {
    setBusy(true);
    setError(null);
    const res = await call<{ conversation?: { id: string } }>(
      'POST',
      `/v1/offers/${offer.id}/${path}`,
      path === 'decline' ? { reason } : {},
    );
    setBusy(false);
    if (res.status !== 200) return setError(res.body.error?.message ?? `refused (${res.status})`);
    stream.markAnswered(offer.id);
    // Accepted: the conversation is yours; it opens packet first.
    if (path === 'accept') location.hash = `#/c/${offer.conversationId}`;
  };
  return (
    <li className="offer" data-offer={offer.id} data-conversation={offer.conversationId}>
      <p className="offer-what">
        <strong>{what === '—' ? 'A conversation' : what}</strong>
        {offer.from ? <> · warm transfer from {offer.from.name || offer.from.email}</> : null}
      </p>
      <p className="offer-facts">
        <span>Queue: {words(offer.queue)}</span> · <span>Why a person: {words(offer.reason)}</span> ·{' '}
        <span className="time-left" data-testid="time-left">
          {left > 0 ? `${duration(left)} left to answer` : 'timing out…'}
        </span>
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!declining ? (
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={() => void answer('accept')}>
            Accept
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setDeclining(true)}>
            Decline…
          </button>
        </div>
      ) : (
        <form
          className="decline"
          onSubmit={(e) => {
            e.preventDefault();
            void answer('decline');
          }}
        >
          <fieldset>
            <legend>Why decline? (it goes to someone else, never back to you)</legend>
            {DECLINE_REASONS.map(([value, label]) => (
              <label key={value} className="radio">
                <input
                  type="radio"
                  name={`decline-${offer.id}`}
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                />{' '}
                {label}
              </label>
            ))}
          </fieldset>
          <div className="row">
            <button type="submit" className="secondary" disabled={busy}>
              Decline the offer
            </button>
            <button type="button" className="secondary" onClick={() => setDeclining(false)}>
              Keep it
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/** The offers made to this person, live from the stream, each with its time left to answer. */
export function OffersPanel({ stream }: { stream: ConsoleStream }) {
  useStream(stream);
  // Redrawn every second, so that the time left counts down.
  useNow(1000);
  const now = Date.now();
  const offers = (stream.offers ?? []).filter((o) => !stream.answered.has(o.id));
  if (offers.length === 0) return null;
  return (
    <section className="offers" aria-labelledby="offers-title" data-testid="offers">
      <h2 id="offers-title">Offered to you ({offers.length})</h2>
      <ul>
        {offers.map((o) => (
          <Offer key={o.id} offer={o} stream={stream} now={now} />
        ))}
      </ul>
    </section>
  );
}
