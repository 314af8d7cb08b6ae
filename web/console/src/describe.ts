import type { Conversation, StoredEvent } from '../../../src/core/index.js';
import type { Colleague } from '../../../src/server/staff-stream-protocol.js';

/** `value_threshold` → "value threshold". */
export const words = (code: string | null | undefined): string => (code ? code.replace(/^queue_/, '').replace(/_/g, ' ') : '—');

/** A person's name as the console shows it. */
export function personName(id: string, people: ReadonlyMap<string, Colleague>, me: string | null): string {
  if (id === me) return 'you';
  const p = people.get(id);
  if (!p) return id;
  return p.name ? `${p.name} (${p.email})` : p.email;
}

/** Who owns the conversation, in words. */
export function ownerText(c: Conversation, people: ReadonlyMap<string, Colleague>, me: string | null): string {
  switch (c.owner.type) {
    case 'agent':
      return `the agent (${c.owner.id})`;
    case 'queue':
      return `waiting in ${words(c.owner.id)}`;
    case 'human':
      return personName(c.owner.id, people, me);
    default:
      return 'nobody (closed)';
  }
}

/** 75_000 → "1 min 15 s". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return `${h} h ${m % 60} min`;
}

/** The intent of a queue item or packet: `{stated, latest}` or older text. */
export function intentText(intent: unknown): string {
  if (typeof intent === 'string') return intent;
  if (intent && typeof intent === 'object') {
    const { stated, latest } = intent as { stated?: unknown; latest?: unknown };
    if (typeof stated === 'string') return typeof latest === 'string' && latest !== stated ? `${stated} — now: ${latest}` : stated;
  }
  return '—';
}

/** What a transition in the log did, in words ("claimed by Ana"). */
export function transitionText(e: StoredEvent, people: ReadonlyMap<string, Colleague>, me: string | null): string | null {
  switch (e.type) {
    case 'handoff.requested':
      return `the agent handed off (${words(e.data.reason)})`;
    case 'conversation.queued':
      return `queued in ${words(e.data.queue)}`;
    case 'conversation.claimed':
      return `claimed by ${personName(e.data.staff, people, me)}`;
    case 'conversation.handed_back':
      return `handed back to the agent by ${personName(e.data.staff, people, me)}${e.data.constraints.length ? ` with ${e.data.constraints.length} constraint(s)` : ''}`;
    case 'conversation.transferred':
      return `transferred by ${personName(e.data.staff, people, me)} to ${e.data.owner.type === 'queue' ? words(e.data.owner.id) : e.data.owner.type === 'human' ? personName(e.data.owner.id, people, me) : e.data.owner.type}`;
    case 'assist.started':
      return `assisted mode started by ${personName(e.data.staff, people, me)}`;
    case 'assist.ended':
      return `assisted mode ended by ${personName(e.data.staff, people, me)}`;
    case 'conversation.closed':
      return `closed (${e.data.reason})`;
    default:
      return null;
  }
}
