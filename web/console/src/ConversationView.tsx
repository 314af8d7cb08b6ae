import { useEffect, useState } from 'react';
import type { ContextPacket, Conversation } from '../../../src/core/index.js';
import type { StaffMe } from './api.js';
import { call } from './api.js';
import { useStream } from './App.js';
import { ActionsPanel, type ActOutcome } from './Actions.js';
import { LabTaskButton } from './LabTaskButton.js';
import { ownerText, transitionText, words } from './describe.js';
import { PacketView } from './PacketView.js';
import { ReviewPanel } from './ReviewPanel.js';
import type { ConsoleStream } from './stream.js';
import { Transcript } from './Transcript.js';
import { useNow } from './QueueView.js';
import { WarmStatus } from './WarmStatus.js';

/** A refused action: what the person tried, the version they saw, and what the conversation is now. */
export interface Stale {
  action: string;
  seen: number;
  current: Conversation;
  message: string;
}

function StaleNotice({ stale, stream, me, onDismiss }: { stale: Stale; stream: ConsoleStream; me: string; onDismiss: () => void }) {
  const log = stream.logs.get(stale.current.id);
  const now = log?.conversation && log.conversation.version > stale.current.version ? log.conversation : stale.current;
  const changes = (log?.events ?? []).flatMap((e) => {
    const version = (e.data as { version?: number }).version;
    const text = version !== undefined && version > stale.seen ? transitionText(e, stream.people, me) : null;
    return text ? [{ seq: e.seq, text }] : [];
  });
  return (
    <div className="stale" role="alert" data-testid="stale">
      <p>
        <strong>Not done: {stale.action}.</strong> The conversation changed since you saw it (version {stale.seen} → {now.version}): it is
        now {words(now.state).toLowerCase()}, owned by <span data-testid="stale-owner">{ownerText(now, stream.people, me)}</span>.
      </p>
      {changes.length > 0 && (
        <ul>
          {changes.map((c) => (
            <li key={c.seq}>{c.text}</li>
          ))}
        </ul>
      )}
      <button type="button" className="secondary" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** One conversation, packet first; the transcript one click away; the actions beside it. */
export function ConversationView({ id, stream, me }: { id: string; stream: ConsoleStream; me: StaffMe }) {
  useStream(stream);
  const [tab, setTab] = useState<'packet' | 'transcript'>('packet');
  const [stale, setStale] = useState<Stale | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<{ request: string; to: string } | null>(null);
  // Redrawn every second while warm offers count down.
  useNow(1000);
  useEffect(() => {
    stream.follow(id);
    return () => stream.unfollow(id);
  }, [stream, id]);
  const log = stream.logs.get(id);
  const conversation = log?.conversation ?? null;
  const events = log?.events ?? [];
  const packet =
    (events.findLast((e) => e.type === 'packet.built')?.data as { packet?: Partial<ContextPacket> } | undefined)?.packet ?? null;
  const messages = events.filter((e) => e.type === 'message.received' || e.type === 'message.sent').length;

  const act = async (action: string, path: string, body: Record<string, unknown>): Promise<ActOutcome> => {
    if (!conversation) return 'refused';
    setError(null);
    setDone(null);
    const seen = conversation.version;
    const answer = await call<{ conversation?: Conversation; warm?: { request: string } }>('POST', `/v1/conversations/${id}/${path}`, {
      ...body,
      version: seen,
    });
    if (answer.status === 200 || answer.status === 201 || answer.status === 202) {
      if (answer.body.conversation) stream.noteConversation(answer.body.conversation);
      setStale(null);
      if (answer.body.warm) setAsked({ request: answer.body.warm.request, to: String(body['to']) });
      setDone(answer.status === 202 ? `${action}: offered; the conversation stays yours until it is accepted.` : `${action}: done.`);
      return 'done';
    }
    if (answer.status === 409 && answer.body.conversation) {
      stream.noteConversation(answer.body.conversation);
      setStale({ action, seen, current: answer.body.conversation, message: answer.body.error?.message ?? '' });
      return 'refused';
    }
    setError(`${action}: ${answer.body.error?.message ?? `refused (${answer.status})`}`);
    return 'refused';
  };

  if (log?.error)
    return (
      <main className="conversation">
        <p role="alert" className="error">
          {log.error}
        </p>
      </main>
    );
  if (!conversation)
    return (
      <main className="conversation">
        <p>Loading the conversation…</p>
      </main>
    );
  return (
    <main className="conversation" aria-labelledby="conversation-title">
      <div className="conversation-head">
        <h1 id="conversation-title">
          Conversation <span className="id">{id}</span>
        </h1>
        <p className="state" data-testid="state">
          {words(conversation.state).toLowerCase()} · {ownerText(conversation, stream.people, me.id)} · version {conversation.version}
        </p>
      </div>
      <div className="columns">
        <div className="main-column">
          <div role="tablist" aria-label="What to show" className="tabs">
            <button
              type="button"
              role="tab"
              id="tab-packet"
              aria-selected={tab === 'packet'}
              aria-controls="panel"
              onClick={() => setTab('packet')}
            >
              Packet
            </button>
            <button
              type="button"
              role="tab"
              id="tab-transcript"
              aria-selected={tab === 'transcript'}
              aria-controls="panel"
              onClick={() => setTab('transcript')}
            >
              Transcript ({messages} messages)
            </button>
          </div>
          <div role="tabpanel" id="panel" aria-labelledby={tab === 'packet' ? 'tab-packet' : 'tab-transcript'} tabIndex={0}>
            {tab === 'packet' ? <PacketView packet={packet} /> : <Transcript events={events} people={stream.people} me={me.id} />}
          </div>
        </div>
        <aside className="side-column" aria-label="Actions">
          {stale && <StaleNotice stale={stale} stream={stream} me={me.id} onDismiss={() => setStale(null)} />}
          {error && (
            <p role="alert" className="error">
              {error}
            </p>
          )}
          {done && (
            <p role="status" className="done">
              {done}
            </p>
          )}
          <WarmStatus events={events} people={stream.people} me={me.id} now={Date.now()} asked={asked} />
          <ActionsPanel
            conversation={conversation}
            events={events}
            packet={packet}
            me={me}
            queues={stream.hello?.queues ?? []}
            people={stream.people}
            act={act}
          />
          {/* The verdicts on this conversation's hand-off (docs/reviews.md), re-read as its log grows. */}
          <ReviewPanel id={id} revision={events.length} />
          {/* Supervisors: turn the reviewed conversation into a lab task (docs/production-tasks.md). */}
          <LabTaskButton conversationId={id} events={events} me={me} />
        </aside>
      </div>
    </main>
  );
}
