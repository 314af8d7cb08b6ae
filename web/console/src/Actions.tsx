import { useId, useState, type FormEvent } from 'react';
import type { ContextPacket, Conversation, StoredEvent } from '../../../src/core/index.js';
import type { Colleague } from '../../../src/server/staff-stream-protocol.js';
import type { StaffMe } from './api.js';
import { personName, words } from './describe.js';

export type ActOutcome = 'done' | 'refused';
type Act = (action: string, path: string, body: Record<string, unknown>) => Promise<ActOutcome>;

interface ConstraintRow {
  tool: string;
  arg: string;
  value: string;
  note: string;
}

/** "The agent may not call refund_charge with charge_id = ch_1." */
export const constraintText = (c: ConstraintRow): string =>
  `The agent may not call ${c.tool || '…'}${c.arg ? ` with ${c.arg} = ${c.value || '…'}` : ' at all'}${c.note ? `: “${c.note}”` : ''}`;

function Reply({ act }: { act: Act }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    if ((await act('Reply', 'replies', { text })) === 'done') setText('');
    setBusy(false);
  };
  return (
    <form className="reply" onSubmit={(e) => void submit(e)}>
      <label htmlFor="reply-text">Reply to the customer</label>
      <textarea
        id="reply-text"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
        }}
        aria-describedby="reply-hint"
      />
      <p id="reply-hint" className="hint">
        Ctrl+Enter sends.
      </p>
      <button type="submit" disabled={busy || !text.trim()}>
        Send reply
      </button>
    </form>
  );
}

function HandBack({ act, tools }: { act: Act; tools: string[] }) {
  const [notes, setNotes] = useState('');
  const [rows, setRows] = useState<ConstraintRow[]>([]);
  const [busy, setBusy] = useState(false);
  const listId = useId();
  const set = (i: number, patch: Partial<ConstraintRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const complete = rows.every((r) => r.tool.trim() && r.note.trim() && (!r.arg.trim() || r.value.trim()));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!complete) return;
    setBusy(true);
    const constraints = rows.map((r) => ({
      tool: r.tool.trim(),
      args: r.arg.trim() ? { [r.arg.trim()]: r.value.trim() } : {},
      note: r.note.trim(),
    }));
    if ((await act('Hand back', 'hand-back', { notes: notes.trim() || null, constraints })) === 'done') {
      setNotes('');
      setRows([]);
    }
    setBusy(false);
  };
  return (
    <form className="hand-back" onSubmit={(e) => void submit(e)} aria-labelledby="hand-back-title">
      <h2 id="hand-back-title">Hand back to the agent</h2>
      <label htmlFor="hand-back-notes">Note for the agent</label>
      <textarea id="hand-back-notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
      <datalist id={listId}>
        {tools.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      {rows.map((r, i) => (
        <fieldset key={i} className="constraint" data-testid="constraint">
          <legend>Constraint {i + 1}</legend>
          <label htmlFor={`c-tool-${i}`}>Tool the agent may not call</label>
          <input id={`c-tool-${i}`} list={listId} value={r.tool} onChange={(e) => set(i, { tool: e.target.value })} required />
          <div className="pair">
            <span>
              <label htmlFor={`c-arg-${i}`}>Only when argument</label>
              <input id={`c-arg-${i}`} value={r.arg} placeholder="e.g. charge_id" onChange={(e) => set(i, { arg: e.target.value })} />
            </span>
            <span>
              <label htmlFor={`c-value-${i}`}>equals</label>
              <input id={`c-value-${i}`} value={r.value} onChange={(e) => set(i, { value: e.target.value })} />
            </span>
          </div>
          <label htmlFor={`c-note-${i}`}>Why (the agent tells the customer this)</label>
          <input id={`c-note-${i}`} value={r.note} onChange={(e) => set(i, { note: e.target.value })} required />
          <p className="preview">{constraintText(r)}</p>
          <button type="button" className="secondary" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
            Remove constraint {i + 1}
          </button>
        </fieldset>
      ))}
      <div className="row">
        <button type="button" className="secondary" onClick={() => setRows([...rows, { tool: '', arg: '', value: '', note: '' }])}>
          Add a constraint
        </button>
        <button type="submit" disabled={busy || !complete}>
          Hand back
        </button>
      </div>
    </form>
  );
}

function Transfer({ act, queues }: { act: Act; queues: string[] }) {
  const [to, setTo] = useState(queues[0] ?? '');
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="transfer"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void act('Transfer', 'transfer', { to, mode: 'cold' }).finally(() => setBusy(false));
      }}
    >
      <label htmlFor="transfer-to">Transfer (cold) to the queue</label>
      <div className="row">
        <select id="transfer-to" value={to} onChange={(e) => setTo(e.target.value)}>
          {queues.map((q) => (
            <option key={q} value={q}>
              {words(q)}
            </option>
          ))}
        </select>
        <button type="submit" className="secondary" disabled={busy || !to}>
          Transfer
        </button>
      </div>
    </form>
  );
}

function Close({ act }: { act: Act }) {
  const [reason, setReason] = useState('resolved');
  return (
    <form
      className="close"
      onSubmit={(e) => {
        e.preventDefault();
        void act('Close', 'close', { reason: reason.trim() || 'resolved' });
      }}
    >
      <label htmlFor="close-reason">Close with the reason</label>
      <div className="row">
        <input id="close-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        <button type="submit" className="secondary">
          Close
        </button>
      </div>
    </form>
  );
}

/** What this person may do now, by the conversation's state and owner. */
export function ActionsPanel(props: {
  conversation: Conversation;
  events: readonly StoredEvent[];
  packet: Partial<ContextPacket> | null;
  me: StaffMe;
  queues: string[];
  people: ReadonlyMap<string, Colleague>;
  act: Act;
}) {
  const { conversation: c, me, act } = props;
  const [claiming, setClaiming] = useState(false);
  const mine = c.owner.type === 'human' && c.owner.id === me.id;
  const waiting = c.state === 'QUEUED' || c.state === 'HANDOFF_PENDING';
  const mayTakeOver = c.state === 'AGENT_ACTIVE' && me.role !== 'agent';
  const tools = [
    ...new Set([
      ...props.events.flatMap((e) => (e.type === 'tool.called' && e.data.name !== 'handoff' ? [e.data.name] : [])),
      ...(props.packet?.actions ?? []).flatMap((a) => (a.tool ? [a.tool] : [])),
    ]),
  ].sort();
  return (
    <div className="actions-panel">
      {(waiting || mayTakeOver) && (
        <button
          type="button"
          className="primary claim"
          disabled={claiming}
          onClick={() => {
            setClaiming(true);
            void act(waiting ? 'Claim' : 'Take over', 'claim', {}).finally(() => setClaiming(false));
          }}
        >
          {waiting ? 'Claim' : 'Take over from the agent'}
        </button>
      )}
      {c.state === 'AGENT_ACTIVE' && <p className="note">The agent is handling this conversation.</p>}
      {c.state === 'CLOSED' && <p className="note">This conversation is closed.</p>}
      {c.owner.type === 'human' && !mine && (
        <p className="note" data-testid="owned-by">
          {personName(c.owner.id, props.people, me.id)} is handling this conversation.
        </p>
      )}
      {mine && (
        <>
          <Reply act={act} />
          <HandBack act={act} tools={tools} />
          <Transfer act={act} queues={props.queues} />
          <Close act={act} />
        </>
      )}
    </div>
  );
}
