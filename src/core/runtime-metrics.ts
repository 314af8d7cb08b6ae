import type { StoredEvent } from './events.js';

/** The window metrics are counted over: events at or after `since` and before `until` (ISO times). */
export interface MetricsWindow {
  since: string;
  until: string;
}

/** A share with what it is a share of, so that no rate is shown without its counts. */
export interface Rate {
  count: number;
  of: number;
  /** count ÷ of, or null when there is nothing to divide by. */
  rate: number | null;
}

/** Hand-off figures for one slice (everything, one agent, one queue). */
export interface HandoffFigures {
  /** Conversations in which the agent took at least one turn in the window. */
  conversationsServed: number;
  handoffs: number;
  /**
   * Conversations handed off with each reason ÷ conversations served (a conversation handed off
   * twice for one reason counts once, so no rate passes 100%); `handoffs` counts the hand-offs.
   */
  handoffRateByReason: Record<string, Rate & { handoffs: number }>;
  /** From the hand-off to the first human message (ms), over hand-offs a human answered. */
  timeToHumanMs: { p50: number | null; p95: number | null; answered: number; unanswered: number };
  /** Human questions the packet already answered ÷ human questions. */
  reAsk: Rate;
  /** Hand-offs closed without a further hand-off ÷ hand-offs. */
  resolutionAfterHandoff: Rate;
  /** Conversations handed to a human more than once ÷ conversations handed off. */
  bounce: Rate;
  /** Replies that lost the race to a new owner and were logged, not delivered. */
  suppressedMessages: number;
}

/** Runtime metrics: overall, per agent, per queue. */
export interface RuntimeMetrics extends HandoffFigures {
  window: MetricsWindow;
  byAgent: Record<string, HandoffFigures>;
  byQueue: Record<string, HandoffFigures>;
}

const rate = (count: number, of: number): Rate => ({ count, of, rate: of === 0 ? null : count / of });

/** The `q` quantile (nearest rank) of sorted values, or null for none. */
function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** What a human's question asks about, by the words it uses. */
const QUESTION_SUBJECTS: ReadonlyArray<[subject: string, pattern: RegExp]> = [
  ['verification', /\b(?:verif\w*|one[- ]time code|security code|confirm (?:your|the) identity|identity|date of birth)\b/i],
  ['order', /\b(?:order (?:id|number)|which order|order no\.?|reference number|booking (?:id|reference)|reservation)\b/i],
  ['amount', /\b(?:how much|amount|which charge|what (?:was|is) the charge|charged)\b/i],
  [
    'intent',
    /\b(?:how can i help|what (?:can i|do you) (?:help|need)|what (?:is|seems to be) the (?:problem|issue)|what happened|what do you need)\b/i,
  ],
];

/** Which of those subjects a packet answers. */
function packetSubjects(packet: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const customer = packet['customer'] as { verified?: unknown; id?: unknown } | undefined;
  if (customer && (customer.verified === true || customer.verified === false)) out.add('verification');
  const intent = packet['intent'];
  if (typeof intent === 'string' && intent.trim() !== '') out.add('intent');
  const facts = Array.isArray(packet['facts']) ? (packet['facts'] as Array<{ field?: unknown }>) : [];
  for (const f of facts) {
    const field = String(f.field ?? '');
    if (/order|reservation|booking/i.test(field)) out.add('order');
    if (/amount|charge|price|total/i.test(field)) out.add('amount');
  }
  return out;
}

const isQuestion = (text: string) =>
  /\?\s*$|\?\s/.test(text) || /^(?:what|which|how|could you|can you|please (?:tell|confirm|send))\b/i.test(text.trim());

interface HandoffRecord {
  conversation: string;
  agent: string;
  queue: string;
  reason: string;
  at: string;
  timeToHumanMs: number | null;
  resolved: boolean;
}

interface ConversationFacts {
  served: boolean;
  agents: Set<string>;
  handoffs: HandoffRecord[];
  suppressed: number;
  questions: number;
  reAsked: number;
}

function conversationFacts(log: readonly StoredEvent[], window: MetricsWindow): ConversationFacts {
  const inWindow = (at: string) => at >= window.since && at < window.until;
  const facts: ConversationFacts = { served: false, agents: new Set(), handoffs: [], suppressed: 0, questions: 0, reAsked: 0 };
  let open: HandoffRecord | null = null;
  let packet = new Set<string>();
  for (const event of log) {
    switch (event.type) {
      case 'turn.completed':
        if (inWindow(event.at)) {
          facts.served = true;
          facts.agents.add(event.data.agent);
        }
        break;
      case 'handoff.requested': {
        if (event.data.route === 'agent') break;
        const from = event.data.from.owner;
        const queue = event.data.owner.type === 'queue' || event.data.owner.type === 'human' ? event.data.owner.id : 'unknown';
        const record: HandoffRecord = {
          conversation: event.conversationId,
          agent: from.type === 'agent' ? from.id : 'unknown',
          queue,
          reason: event.data.reason,
          at: event.at,
          timeToHumanMs: null,
          resolved: false,
        };
        open = record;
        if (inWindow(event.at)) facts.handoffs.push(record);
        break;
      }
      case 'conversation.queued':
        // The router may place it in another queue than the one asked for: that is where it waited.
        if (open) open.queue = event.data.queue;
        break;
      case 'packet.built':
        packet = packetSubjects(event.data.packet);
        break;
      case 'message.sent': {
        if (event.data.message.sender.type !== 'human') break;
        if (open && open.timeToHumanMs === null) open.timeToHumanMs = Math.max(0, Date.parse(event.at) - Date.parse(open.at));
        const text = event.data.message.text;
        if (inWindow(event.at) && isQuestion(text)) {
          facts.questions += 1;
          const subjects = QUESTION_SUBJECTS.filter(([, p]) => p.test(text)).map(([s]) => s);
          if (subjects.some((s) => packet.has(s))) facts.reAsked += 1;
        }
        break;
      }
      case 'conversation.closed':
        // The last hand-off ends resolved: no further hand-off came after it.
        if (open) open.resolved = true;
        open = null;
        break;
      case 'message.suppressed':
        if (inWindow(event.at)) facts.suppressed += 1;
        break;
    }
  }
  return facts;
}

/**
 * One slice's figures: the hand-offs `keep` selects, rates over the conversations `servedBy`
 * selects, and questions and suppressed replies in the conversations `scope` selects.
 */
function figures(
  all: readonly ConversationFacts[],
  keep: (h: HandoffRecord) => boolean,
  servedBy: (c: ConversationFacts) => boolean,
  scope: (c: ConversationFacts) => boolean = servedBy,
): HandoffFigures {
  const handoffs = all.flatMap((c) => c.handoffs.filter(keep));
  const served = all.filter(servedBy).length;
  const reasons = new Map<string, { handoffs: number; conversations: Set<string> }>();
  for (const h of handoffs) {
    const r = reasons.get(h.reason) ?? { handoffs: 0, conversations: new Set<string>() };
    r.handoffs += 1;
    r.conversations.add(h.conversation);
    reasons.set(h.reason, r);
  }
  const times = handoffs.flatMap((h) => (h.timeToHumanMs === null ? [] : [h.timeToHumanMs])).sort((a, b) => a - b);
  const handedOff = all.filter((c) => c.handoffs.some(keep));
  const scoped = all.filter(scope);
  const questions = scoped.reduce((n, c) => n + c.questions, 0);
  const reAsked = scoped.reduce((n, c) => n + c.reAsked, 0);
  return {
    conversationsServed: served,
    handoffs: handoffs.length,
    handoffRateByReason: Object.fromEntries(
      [...reasons]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([r, n]) => [r, { ...rate(Math.min(n.conversations.size, served), served), handoffs: n.handoffs }]),
    ),
    timeToHumanMs: {
      p50: quantile(times, 0.5),
      p95: quantile(times, 0.95),
      answered: times.length,
      unanswered: handoffs.length - times.length,
    },
    reAsk: rate(reAsked, questions),
    resolutionAfterHandoff: rate(handoffs.filter((h) => h.resolved).length, handoffs.length),
    bounce: rate(handedOff.filter((c) => c.handoffs.filter(keep).length > 1).length, handedOff.length),
    suppressedMessages: scoped.reduce((n, c) => n + c.suppressed, 0),
  };
}

/**
 * The runtime's hand-off metrics, a pure function of conversation logs (RUNTIME.md §Metrics):
 * hand-off rate by reason, time to human (p50, p95; unanswered hand-offs counted apart), re-ask
 * rate, resolution after hand-off, bounce rate and suppressed messages, overall, per agent and
 * per queue. A hand-off belongs to the window its request falls in; what follows it (the human's
 * first message, the close) may come later.
 */
export function runtimeMetrics(logs: readonly (readonly StoredEvent[])[], window: MetricsWindow): RuntimeMetrics {
  const all = logs.map((log) => conversationFacts(log, window));
  const agents = new Set(all.flatMap((c) => [...c.agents, ...c.handoffs.map((h) => h.agent)]));
  const queues = new Set(all.flatMap((c) => c.handoffs.map((h) => h.queue)));
  return {
    window,
    ...figures(
      all,
      () => true,
      (c) => c.served,
      (c) => c.served || c.handoffs.length > 0 || c.suppressed > 0,
    ),
    byAgent: Object.fromEntries(
      [...agents].sort().map((a) => [
        a,
        figures(
          all,
          (h) => h.agent === a,
          (c) => c.agents.has(a),
        ),
      ]),
    ),
    byQueue: Object.fromEntries(
      [...queues].sort().map((q) => [
        q,
        figures(
          all,
          (h) => h.queue === q,
          (c) => c.served,
          (c) => c.handoffs.some((h) => h.queue === q),
        ),
      ]),
    ),
  };
}
