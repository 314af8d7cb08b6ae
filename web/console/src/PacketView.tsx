import type { ContextPacket, PacketAction } from '../../../src/core/index.js';
import { intentText, words } from './describe.js';

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
const args = (a: Record<string, unknown> | null): string =>
  a && Object.keys(a).length
    ? Object.entries(a)
        .map(([k, v]) => `${k}=${show(v)}`)
        .join(', ')
    : '';

function ActionLine({ action }: { action: PacketAction }) {
  if (action.status === 'planned')
    return (
      <li className="action planned">
        <span className="tag">not taken</span> {action.tool ?? 'an action'} {action.arguments ? `(${args(action.arguments)})` : ''} —{' '}
        {action.why}
      </li>
    );
  return (
    <li className={`action ${action.status}`}>
      <span className="tag">{action.status === 'succeeded' ? 'done' : 'failed'}</span> {action.tool}({args(action.arguments)})
      {action.status === 'failed' ? ` — ${action.error}` : ''}
    </li>
  );
}

/**
 * The context packet, first thing on the conversation's screen: who, how verified, what they
 * want, why the agent stopped, what it suggests; then facts with their sources and what was done
 * and not done. The one model-written line is labelled as such. Redacted values are counted,
 * never shown (they are not in the packet).
 */
export function PacketView({ packet }: { packet: Partial<ContextPacket> | null }) {
  if (!packet) return <p className="empty">No context packet: the agent did not hand this conversation off.</p>;
  const customer = packet.customer;
  const redacted = Object.entries(packet.redactions ?? {}).filter(([, n]) => (n as number) > 0);
  const done = (packet.actions ?? []).filter((a) => a.status !== 'planned');
  const notDone = (packet.actions ?? []).filter((a) => a.status === 'planned');
  return (
    <section className="packet" aria-labelledby="packet-title" data-testid="packet">
      <h2 id="packet-title" className="visually-hidden">
        Context packet
      </h2>
      <dl className="essentials">
        <div>
          <dt>Customer</dt>
          <dd data-testid="packet-customer">
            {customer?.id ?? 'not identified'}{' '}
            <span className={`badge ${customer?.verified ? 'ok' : 'warn'}`}>
              {customer?.verified ? `verified by ${customer.verified_by ?? 'a check'}` : 'not verified'}
            </span>
          </dd>
        </div>
        <div>
          <dt>Wants</dt>
          <dd data-testid="packet-intent">{intentText(packet.intent)}</dd>
        </div>
        <div>
          <dt>Why the agent stopped</dt>
          <dd data-testid="packet-reason">
            {words(packet.handoff?.reason)}
            {packet.handoff?.evidence ? <q className="evidence">{packet.handoff.evidence}</q> : null}
          </dd>
        </div>
        <div className="next">
          <dt>Suggested next step</dt>
          <dd data-testid="packet-next">{packet.suggested_next_step ?? '—'}</dd>
        </div>
        {packet.summary && (
          <div className="summary">
            <dt>Summary, written by the model (not checked)</dt>
            <dd data-testid="packet-summary">{packet.summary.text}</dd>
          </div>
        )}
      </dl>
      <div className="details">
        <section aria-labelledby="actions-title">
          <h3 id="actions-title">What was done</h3>
          {done.length === 0 ? (
            <p className="empty">Nothing yet.</p>
          ) : (
            <ul className="actions">
              {done.map((a, i) => (
                <ActionLine key={i} action={a} />
              ))}
            </ul>
          )}
          {notDone.length > 0 && (
            <>
              <h3>Not done, and why</h3>
              <ul className="actions">
                {notDone.map((a, i) => (
                  <ActionLine key={i} action={a} />
                ))}
              </ul>
            </>
          )}
          {(packet.open_questions ?? []).length > 0 && (
            <>
              <h3>Open questions</h3>
              <ul>
                {packet.open_questions!.map((q, i) => (
                  <li key={i}>{q}</li>
                ))}
              </ul>
            </>
          )}
        </section>
        <section aria-labelledby="facts-title">
          <h3 id="facts-title">Facts, with their sources</h3>
          {(packet.facts ?? []).length === 0 ? (
            <p className="empty">No facts from tools.</p>
          ) : (
            <table className="facts">
              <thead>
                <tr>
                  <th scope="col">Fact</th>
                  <th scope="col">Value</th>
                  <th scope="col">Source</th>
                </tr>
              </thead>
              <tbody>
                {packet.facts!.map((f, i) => (
                  <tr key={i}>
                    <td>{f.field}</td>
                    <td>{String(f.value)}</td>
                    <td>{f.source}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {(packet.facts_omitted ?? 0) > 0 && <p className="note">{packet.facts_omitted} more facts left out; see the transcript.</p>}
          {redacted.length > 0 && (
            <p className="note">Redacted, never shown: {redacted.map(([kind, n]) => `${String(n)} ${kind}`).join(', ')}.</p>
          )}
        </section>
      </div>
    </section>
  );
}
