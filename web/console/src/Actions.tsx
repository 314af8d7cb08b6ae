import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ContextPacket, Conversation, StoredEvent } from '../../../src/core/index.js';
import type { Colleague } from '../../../src/server/staff-stream-protocol.js';
import { call, type StaffMe } from './api.js';
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

/** The agent's latest draft for this person, if it answers the log after their last reply. */
export function latestDraft(events: readonly StoredEvent[]): Extract<StoredEvent, { type: 'draft.proposed' }> | null {
  const draft = events.findLast((e): e is Extract<StoredEvent, { type: 'draft.proposed' }> => e.type === 'draft.proposed');
  if (!draft) return null;
  const replied = events.some((e) => e.seq > draft.seq && e.type === 'message.sent' && e.data.message.sender.type === 'human');
  return replied ? null : draft;
}

function Reply({ act, events, assisted }: { act: Act; events: readonly StoredEvent[]; assisted: boolean }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  // The draft last offered (by its log position), and whether it went into the box: each new one is offered once.
  const [offered, setOffered] = useState<{ seq: number; placed: boolean } | null>(null);
  const draft = assisted ? latestDraft(events) : null;
  if (draft && draft.seq !== offered?.seq) {
    // A draft never replaces what the person is typing; it fills an empty box, or is shown beside it.
    const placed = !text.trim();
    setOffered({ seq: draft.seq, placed });
    if (placed) setText(draft.data.text);
  }
  const showing = draft !== null && draft.seq === offered?.seq ? { draft, placed: offered.placed } : null;
  // The draft as of the latest render, for the send that finishes after it arrived.
  const latest = useRef(showing);
  latest.current = showing;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    if ((await act('Reply', 'replies', { text })) === 'done') {
      // A draft that arrived while this reply was on its way was shown beside the box: the box is free now.
      const waiting = latest.current;
      if (waiting && !waiting.placed) {
        setOffered({ seq: waiting.draft.seq, placed: true });
        setText(waiting.draft.data.text);
      } else setText('');
    }
    setBusy(false);
  };
  return (
    <form className="reply" onSubmit={(e) => void submit(e)}>
      <label htmlFor="reply-text">Reply to the customer</label>
      {showing && (
        <p className="draft-note" data-testid="draft-note">
          {showing.placed
            ? 'A draft from the agent is in the box: edit it and send it yourself. It is not sent by itself.'
            : 'A draft from the agent (not sent, and not put over what you are typing):'}
        </p>
      )}
      {showing && !showing.placed && (
        <blockquote className="draft-text" data-testid="draft-text">
          {showing.draft.data.text}
        </blockquote>
      )}
      {showing?.draft.data.flagged && (
        <p className="warning" role="alert" data-testid="draft-flagged">
          Warning: the guardrail “{words(showing.draft.data.flagged)}” would have stopped this reply had the agent sent it. Check it before
          you send.
        </p>
      )}
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

function Assist({ act, on }: { act: Act; on: boolean }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="assist">
      <button
        type="button"
        className="secondary"
        aria-pressed={on}
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void act(on ? 'Assisted mode off' : 'Assisted mode on', 'assist', { on: !on }).finally(() => setBusy(false));
        }}
      >
        Assisted mode: {on ? 'on' : 'off'}
      </button>
      <p className="hint">
        {on ? 'The agent drafts replies for you; nothing is sent until you send it.' : 'Turn on to have the agent draft replies for you.'}
      </p>
    </div>
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

function Transfer({ act, queues, me }: { act: Act; queues: string[]; me: string }) {
  const [mode, setMode] = useState<'cold' | 'warm'>('cold');
  const [kind, setKind] = useState<'queue' | 'person'>('queue');
  const [queue, setQueue] = useState(queues[0] ?? '');
  const [person, setPerson] = useState('');
  const [colleagues, setColleagues] = useState<Colleague[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void call<{ staff: Colleague[] }>('GET', '/v1/staff/colleagues').then((a) => {
      if (a.status === 200) setColleagues(a.body.staff.filter((p) => p.id !== me));
    });
  }, [me]);
  const to = kind === 'queue' ? queue : person;
  return (
    <form
      className="transfer"
      aria-labelledby="transfer-title"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void act(mode === 'warm' ? 'Warm transfer' : 'Transfer', 'transfer', { to, mode }).finally(() => setBusy(false));
      }}
    >
      <h2 id="transfer-title">Transfer</h2>
      <fieldset>
        <legend>How</legend>
        <label className="radio">
          <input type="radio" name="transfer-mode" checked={mode === 'cold'} onChange={() => setMode('cold')} /> Cold (at once)
        </label>
        <label className="radio">
          <input type="radio" name="transfer-mode" checked={mode === 'warm'} onChange={() => setMode('warm')} /> Warm (yours until accepted)
        </label>
      </fieldset>
      <fieldset>
        <legend>To</legend>
        <label className="radio">
          <input type="radio" name="transfer-kind" checked={kind === 'queue'} onChange={() => setKind('queue')} /> A queue
        </label>
        <label className="radio">
          <input type="radio" name="transfer-kind" checked={kind === 'person'} onChange={() => setKind('person')} /> A person
        </label>
      </fieldset>
      <div className="row">
        {kind === 'queue' ? (
          <>
            <label htmlFor="transfer-to" className="visually-hidden">
              Queue to transfer to
            </label>
            <select id="transfer-to" value={queue} onChange={(e) => setQueue(e.target.value)}>
              {queues.map((q) => (
                <option key={q} value={q}>
                  {words(q)}
                </option>
              ))}
            </select>
          </>
        ) : (
          <>
            <label htmlFor="transfer-person" className="visually-hidden">
              Person to transfer to
            </label>
            <select id="transfer-person" value={person} onChange={(e) => setPerson(e.target.value)}>
              <option value="">Choose a person…</option>
              {colleagues.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name ? `${p.name} (${p.email})` : p.email}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="submit" className="secondary" disabled={busy || !to}>
          {mode === 'warm' ? 'Offer warm transfer' : 'Transfer'}
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
          <Reply act={act} events={props.events} assisted={c.state === 'AGENT_ASSIST'} />
          <Assist act={act} on={c.state === 'AGENT_ASSIST'} />
          <HandBack act={act} tools={tools} />
          <Transfer act={act} queues={props.queues} me={me.id} />
          <Close act={act} />
        </>
      )}
    </div>
  );
}
