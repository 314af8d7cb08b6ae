import { useEffect, useState } from 'react';
import type { ReviewSample, SampleStratum } from '../../../src/core/index.js';
import type { StaffMe } from './api.js';
import { call } from './api.js';
import { words } from './describe.js';
import { ReviewPanel } from './ReviewPanel.js';

const DAY_MS = 86_400_000;
const WINDOWS = [
  ['day', 'Last 24 hours', DAY_MS],
  ['week', 'Last 7 days', 7 * DAY_MS],
  ['month', 'Last 30 days', 30 * DAY_MS],
] as const;

const stratumTitle = (s: SampleStratum) =>
  s.subject === 'kept'
    ? 'Kept by the agent: should these have gone to a person?'
    : `${words(s.reason ?? '')} → ${words((s.queue ?? '').replace(/^queue_/, ''))}`;

/**
 * The supervisor's review screen (docs/reviews.md): a stratified, seeded sample of the window's
 * hand-offs (by reason and queue) and of the conversations the agent kept; picking one opens the
 * same review form the person who took it answers.
 */
export function ReviewsView({ me }: { me: StaffMe }) {
  const [windowId, setWindowId] = useState<(typeof WINDOWS)[number][0]>('week');
  const [seed, setSeed] = useState(1);
  const [perStratum, setPerStratum] = useState(5);
  const [sample, setSample] = useState<ReviewSample | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const supervisor = me.role !== 'agent';
  useEffect(() => {
    if (!supervisor) return;
    let current = true;
    const until = new Date();
    const since = new Date(until.getTime() - WINDOWS.find((w) => w[0] === windowId)![2]);
    const query = new URLSearchParams({
      since: since.toISOString(),
      until: until.toISOString(),
      seed: String(seed),
      perStratum: String(perStratum),
    });
    void call<ReviewSample>('GET', `/v1/reviews/sample?${query.toString()}`).then((a) => {
      if (!current) return;
      if (a.status === 200) {
        setSample(a.body);
        setError(null);
      } else setError(a.body.error?.message ?? `the sample could not be read (${a.status})`);
    });
    return () => {
      current = false;
    };
  }, [supervisor, windowId, seed, perStratum, revision]);

  if (!supervisor)
    return (
      <main className="reviews" aria-labelledby="reviews-title">
        <h1 id="reviews-title">Reviews</h1>
        <p>Reviewing a sample is for supervisors. You review the hand-offs you took from their conversation.</p>
      </main>
    );
  return (
    <main className="reviews" aria-labelledby="reviews-title">
      <div className="dashboard-head">
        <h1 id="reviews-title">Reviews</h1>
        <label htmlFor="reviews-window">Window</label>
        <select id="reviews-window" value={windowId} onChange={(e) => setWindowId(e.target.value as typeof windowId)}>
          {WINDOWS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor="reviews-seed">Seed</label>
        <input
          id="reviews-seed"
          type="number"
          min={0}
          value={seed}
          onChange={(e) => setSeed(Math.max(0, Math.floor(Number(e.target.value) || 0)))}
          className="narrow"
        />
        <label htmlFor="reviews-size">Per stratum</label>
        <input
          id="reviews-size"
          type="number"
          min={1}
          max={500}
          value={perStratum}
          onChange={(e) => setPerStratum(Math.min(500, Math.max(1, Math.floor(Number(e.target.value) || 1))))}
          className="narrow"
        />
      </div>
      <p className="note">
        A stratified sample: up to {perStratum} from each stratum, in an order the seed fixes (the same seed draws the same sample). The
        estimates on the dashboard weight each stratum by its size.
      </p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!sample ? (
        <p>Loading the sample…</p>
      ) : sample.strata.length === 0 ? (
        <p>Nothing to review in this window.</p>
      ) : (
        <div className="columns">
          <div className="main-column">
            {sample.strata.map((s) => (
              <section key={s.stratum} aria-labelledby={`stratum-${s.stratum}`} className="stratum" data-testid={`stratum-${s.stratum}`}>
                <h2 id={`stratum-${s.stratum}`}>{stratumTitle(s)}</h2>
                <p className="note">
                  {s.population} in the window, {s.reviewed} reviewed.
                </p>
                <ul>
                  {s.units.map((u) => {
                    const key = `${u.conversationId}#${u.subject === 'handoff' ? u.handoff : 'kept'}`;
                    return (
                      <li key={key} data-conversation={u.conversationId}>
                        <a href={`#/c/${u.conversationId}`}>{u.conversationId}</a> · {new Date(u.at).toLocaleString()}{' '}
                        {u.reviewed ? <span className="badge">reviewed</span> : null}{' '}
                        <button
                          type="button"
                          className="secondary"
                          aria-expanded={open === u.conversationId}
                          onClick={() => setOpen(u.conversationId)}
                        >
                          Review {u.conversationId}
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </section>
            ))}
          </div>
          <aside className="side-column" aria-label="Review form">
            {open ? (
              <ReviewPanel key={open} id={open} showMessages revision={revision} onRecorded={() => setRevision((n) => n + 1)} />
            ) : (
              <p>Pick a conversation to review.</p>
            )}
          </aside>
        </div>
      )}
    </main>
  );
}
