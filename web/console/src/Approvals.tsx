import { useEffect, useState } from 'react';
import type { ApprovalItem } from '../../../src/server/staff-stream-protocol.js';
import type { StaffMe } from './api.js';
import { call } from './api.js';
import { useStream } from './App.js';
import { duration, words } from './describe.js';
import { useNow } from './QueueView.js';
import type { ConsoleStream } from './stream.js';

/** A call's JSON arguments as name–value pairs (the text itself when it is not an object). */
function argumentPairs(text: string): Array<[string, string]> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]);
    }
  } catch {
    // Not JSON: shown as it is.
  }
  return [['arguments', text]];
}

function Approval({ item, stream, now }: { item: ApprovalItem; stream: ConsoleStream; now: number }) {
  const [rejecting, setRejecting] = useState(false);
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const decide = async (approved: boolean) => {
    setBusy(true);
    setError(null);
    const res = await call('POST', `/v1/conversations/${item.conversationId}/approval`, approved ? { approved } : { approved, feedback });
    setBusy(false);
    if (res.status !== 200) return setError(res.body.error?.message ?? `refused (${res.status})`);
    stream.markDecided(item.call.id);
  };
  const titleId = `approval-${item.call.id}`;
  const waited = item.requestedAt ? now - Date.parse(item.requestedAt) : null;
  return (
    <li className="approval" data-conversation={item.conversationId} data-call={item.call.id} aria-labelledby={titleId}>
      <h2 id={titleId}>
        The agent wants to <strong>{words(item.call.name)}</strong>
      </h2>
      <dl className="call-arguments">
        {argumentPairs(item.call.arguments).map(([name, value]) => (
          <div key={name}>
            <dt>{words(name)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="approval-facts">
        {item.customerSaid !== null && (
          <>
            <span>
              The customer said: <q>{item.customerSaid}</q>
            </span>{' '}
            ·{' '}
          </>
        )}
        <span>Why it waits: {item.why ?? '—'}</span>
        {waited !== null && <> · waiting {duration(waited)}</>} · <a href={`#/c/${item.conversationId}`}>Open the conversation</a>
      </p>
      <p className="hint">Nothing reaches the customer from this turn until you decide.</p>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {!rejecting ? (
        <div className="row">
          <button type="button" className="primary" disabled={busy} onClick={() => void decide(true)}>
            Approve
          </button>
          <button type="button" className="secondary" disabled={busy} onClick={() => setRejecting(true)}>
            Reject…
          </button>
        </div>
      ) : (
        <form
          className="reject"
          onSubmit={(e) => {
            e.preventDefault();
            void decide(false);
          }}
        >
          <label htmlFor={`feedback-${item.call.id}`}>What should the agent do instead? (the agent reads this as the call's answer)</label>
          <textarea
            id={`feedback-${item.call.id}`}
            required
            maxLength={2000}
            rows={3}
            value={feedback}
            onChange={(e) => setFeedback(e.target.value)}
          />
          <div className="row">
            <button type="submit" className="secondary" disabled={busy || feedback.trim() === ''}>
              Reject with this feedback
            </button>
            <button type="button" className="secondary" onClick={() => setRejecting(false)}>
              Back
            </button>
          </div>
        </form>
      )}
    </li>
  );
}

/** Supervisors: the agents' high-risk actions waiting for approval, live, oldest first. */
export function ApprovalsView({ stream, me }: { stream: ConsoleStream; me: StaffMe }) {
  useStream(stream);
  // Redrawn every second, so that the waiting times count up.
  useNow(1000);
  const supervisor = me.role === 'supervisor' || me.role === 'admin';
  useEffect(() => {
    if (!supervisor) return;
    stream.followApprovals(true);
    return () => stream.followApprovals(false);
  }, [stream, supervisor]);
  const items = (stream.approvals ?? []).filter((a) => !stream.decided.has(a.call.id));
  return (
    <main className="approvals" aria-labelledby="approvals-title">
      <h1 id="approvals-title">Waiting for approval</h1>
      {!supervisor ? (
        <p className="empty">Approving the agents' actions is for supervisors.</p>
      ) : stream.approvals === null ? (
        <p>Loading the actions waiting for approval…</p>
      ) : items.length === 0 ? (
        <p className="empty">No action of an agent waits for approval.</p>
      ) : (
        <ul>
          {items.map((item) => (
            <Approval key={item.call.id} item={item} stream={stream} now={Date.now()} />
          ))}
        </ul>
      )}
    </main>
  );
}
