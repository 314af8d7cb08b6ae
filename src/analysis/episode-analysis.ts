/**
 * What the lab's metrics and the rewards read from one episode record: its hand-off outcome against the label, its
 * timing, the packet's required facts, the policy-rule violations (each at its message), and the
 * refusals and hand-offs with whether their text cites the policy. Pure; a report can show the
 * same findings at their turns.
 */
import { isDeepStrictEqual } from 'node:util';
import { hasExplicitConfirmation } from '../core/confirmation.js';
import type { TranscriptItem } from '../core/transcript.js';
import type { Domain, GoldAction } from '../domains/domain.js';
import { TRANSFER_TOOLS } from '../domains/evaluator.js';
import { toolCallsOf, type TrajectoryMessage, type TrajectoryToolCall } from '../domains/trajectory.js';
import { citedTerms, isRefusal, metricRulesOf, refusalCitedTerms } from './domain-rules.js';
import type { RecordedEpisode } from './recorded-episode.js';

/** The five policy rules, in the order METRICS.md lists them. */
export const VIOLATION_RULES = [
  'write_without_confirmation',
  'write_before_authentication',
  'several_actions_in_one_turn',
  'action_after_transfer',
  'write_outside_reference',
] as const;
export type ViolationRule = (typeof VIOLATION_RULES)[number];

/** One breach of a rule: the rule, the trajectory message it is at, and the tool call concerned (if any). */
export interface Violation {
  rule: ViolationRule;
  message: number;
  tool: string | null;
}

/** TP, FP, FN, TN: transferred or not against `should_transfer`. */
export type HandoffClass = 'tp' | 'fp' | 'fn' | 'tn';

/** When a due hand-off happened, in customer turns (only for true positives with a known `due_turn`). */
export interface HandoffTiming {
  due_turn: number;
  /** The customer turn the hand-off answered. */
  turn: number;
  /** `turn − due_turn`; 0 for an early hand-off whose trigger was already present. Negative: early. */
  lateness: number;
  on_time: boolean;
  /** Before `due_turn` (on time only when the trigger was already present). */
  early: boolean;
}

/** The kinds of fact a packet must carry (METRICS.md: packet quality). */
export const PACKET_FACT_KINDS = ['customer_id', 'verification', 'intent', 'id', 'amount', 'action'] as const;
export type PacketFactKind = (typeof PACKET_FACT_KINDS)[number];

/** One fact a hand-off's packet must carry, and whether it does. */
export interface RequiredFact {
  kind: PacketFactKind;
  /** The value required (an id, an amount, a tool name, the verification state, …). */
  expected: string;
  present: boolean;
}

/** A refusal or a hand-off, and whether its text names a policy reason. */
export interface CitationEvent {
  kind: 'refusal' | 'handoff';
  /** The first and last trajectory messages of the agent's turn. */
  from: number;
  to: number;
  cited: boolean;
  /** The policy terms its text names. */
  terms: string[];
}

/** Everything the metrics take from one episode. */
export interface EpisodeAnalysis {
  key: string;
  /** The unit resampled by the bootstrap: the task or hand-off variant (`<domain>/<task>[/<kind>]`). */
  task: string;
  kind: string;
  style: string;
  trial: number;
  scored: boolean;
  /** Null when unscored. */
  success: boolean | null;
  should_transfer: boolean;
  transferred: boolean;
  handoff_class: HandoffClass;
  /** For a true positive with an expected target: whether it went elsewhere; else null. */
  wrong_target: boolean | null;
  target: string | null;
  /** Null unless a true positive with a known `due_turn`. */
  timing: HandoffTiming | null;
  /** The facts the hand-off's packet must carry (null when there was no hand-off). */
  packet: RequiredFact[] | null;
  violations: Violation[];
  /** Whether the task has gold actions (otherwise `write_outside_reference` cannot be judged). */
  has_reference: boolean;
  citations: CitationEvent[];
}

/** The task (or hand-off variant) an episode belongs to: its record key without style and trial. */
export const taskUnitOf = (record: Pick<RecordedEpisode, 'key'>): string => record.key.split('#')[0] ?? record.key;

/** A call that hands off: the domain's transfer tool, or the harness's hand-off (or tau2-bench's). */
export const isTransferCall = (domain: Pick<Domain, 'transferTool'>, name: string) =>
  name === domain.transferTool || TRANSFER_TOOLS.has(name);

/** Same name, and equal values on `compareArgs`, or else on every argument the call has: the evaluator's (tau2-bench's) rule. */
export function matchesGold(action: GoldAction, call: TrajectoryToolCall): boolean {
  if (action.name !== call.name) return false;
  const keys = action.compareArgs ?? Object.keys(call.arguments);
  return keys.every((k) => isDeepStrictEqual(call.arguments[k], action.arguments[k]));
}

/** Results of tool calls by call id. */
function toolResults(messages: readonly TrajectoryMessage[]): Map<string, Extract<TrajectoryMessage, { role: 'tool' }>> {
  const results = new Map<string, Extract<TrajectoryMessage, { role: 'tool' }>>();
  for (const m of messages) if (m.role === 'tool') results.set(m.id, m);
  return results;
}

/** A call succeeded when its result is there, is not an error, and was not refused by the harness. */
function succeeded(results: ReturnType<typeof toolResults>, id: string): boolean {
  const r = results.get(id);
  return r !== undefined && !r.error && r.executed !== false;
}

const userTextBefore = (messages: readonly TrajectoryMessage[], index: number): string =>
  messages
    .slice(0, index)
    .flatMap((m) => (m.role === 'user' && m.content ? [m.content] : []))
    .join('\n')
    .toLowerCase();

/**
 * The ordinal of the first tool call that established the customer's identity (by the domain's
 * rules: retail's e-mail or name/zip lookup, airline's `get_user_details` on a user id the customer
 * gave, billing's `verify_customer`), or null.
 */
export function authenticationOrdinal(domain: Domain, messages: readonly TrajectoryMessage[]): number | null {
  const rules = metricRulesOf(domain.name);
  const results = toolResults(messages);
  for (const { call, message, ordinal } of toolCallsOf(messages)) {
    if (call.requestor !== 'assistant' || !rules.authTools.includes(call.name) || !succeeded(results, call.id)) continue;
    if (rules.authArgumentGivenByCustomer !== null) {
      const given = call.arguments[rules.authArgumentGivenByCustomer];
      if (typeof given !== 'string' || given.trim() === '' || !userTextBefore(messages, message).includes(given.trim().toLowerCase()))
        continue;
    }
    return ordinal;
  }
  return null;
}

/** The transcript as the harness's confirmation check reads it: customer turns, and agent replies the customer saw. */
function transcriptBefore(messages: readonly TrajectoryMessage[], index: number): TranscriptItem[] {
  const items: TranscriptItem[] = [];
  for (const m of messages.slice(0, index)) {
    if (m.role === 'user') items.push({ role: 'customer', text: m.content ?? '' });
    // Text that rides with a tool call is never shown to the customer by the harness; a reply is.
    else if (m.role === 'assistant' && m.toolCalls.length === 0 && m.content) items.push({ role: 'agent', text: m.content });
  }
  return items;
}

/** The policy-rule violations of one trajectory, in message order. */
export function findViolations(
  domain: Domain,
  messages: readonly TrajectoryMessage[],
  gold: readonly GoldAction[] | null,
  transferOrdinal: number | null,
): Violation[] {
  const found: Violation[] = [];
  const rules = metricRulesOf(domain.name);
  const needsConfirmation = new Map(domain.tools.map((t) => [t.name, t.needsConfirmation !== false]));
  const auth = authenticationOrdinal(domain, messages);
  const calls = toolCallsOf(messages).filter((c) => c.call.requestor === 'assistant');

  messages.forEach((m, index) => {
    if (m.role !== 'assistant' || m.toolCalls.length === 0) return;
    const soleTransfer = m.toolCalls.length === 1 && isTransferCall(domain, (m.toolCalls[0] as TrajectoryToolCall).name);
    const withText = (m.content ?? '').trim() !== '';
    // The one sentence that announces a hand-off may go with it.
    if (m.toolCalls.length > 1 || (withText && !soleTransfer))
      found.push({ rule: 'several_actions_in_one_turn', message: index, tool: null });
  });

  for (const { call, message, ordinal } of calls) {
    if (transferOrdinal !== null && ordinal > transferOrdinal) {
      found.push({ rule: 'action_after_transfer', message, tool: call.name });
    }
    if (!domain.isWrite(call.name)) continue;
    if ((needsConfirmation.get(call.name) ?? true) && !hasExplicitConfirmation(transcriptBefore(messages, message))) {
      found.push({ rule: 'write_without_confirmation', message, tool: call.name });
    }
    if (!rules.authTools.includes(call.name) && (auth === null || ordinal < auth)) {
      found.push({ rule: 'write_before_authentication', message, tool: call.name });
    }
    if (gold !== null && !gold.some((action) => matchesGold(action, call))) {
      found.push({ rule: 'write_outside_reference', message, tool: call.name });
    }
  }
  return found.sort((a, b) => a.message - b.message || VIOLATION_RULES.indexOf(a.rule) - VIOLATION_RULES.indexOf(b.rule));
}

/** The agent's turns: the messages after each customer message (the first, before any, is the greeting). */
function agentTurns(messages: readonly TrajectoryMessage[]): { from: number; to: number; text: string }[] {
  const turns: { from: number; to: number; text: string }[] = [];
  let current: { from: number; to: number; texts: string[] } | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'user') {
      if (current) turns.push({ from: current.from, to: current.to, text: current.texts.join('\n') });
      current = null;
      return;
    }
    current ??= { from: i, to: i, texts: [] };
    current.to = i;
    if (m.role === 'assistant' && m.content) current.texts.push(m.content);
  });
  const last = current as { from: number; to: number; texts: string[] } | null;
  if (last) turns.push({ from: last.from, to: last.to, text: last.texts.join('\n') });
  return turns;
}

/**
 * Refusals and the hand-off, each an agent turn: the turn with the hand-off, and every other turn
 * whose text declines (see `isRefusal`). A hand-off is cited when its turn's text names a policy
 * term; a refusal when its declining sentence, or the reason right after it, does (see
 * `refusalCitedTerms`).
 */
export function findCitationEvents(domain: string, messages: readonly TrajectoryMessage[], handoffMessage: number | null): CitationEvent[] {
  const events: CitationEvent[] = [];
  for (const turn of agentTurns(messages)) {
    const handoff = handoffMessage !== null && handoffMessage >= turn.from && handoffMessage <= turn.to;
    if (!handoff && !isRefusal(turn.text)) continue;
    const terms = handoff ? citedTerms(domain, turn.text) : refusalCitedTerms(domain, turn.text);
    events.push({ kind: handoff ? 'handoff' : 'refusal', from: turn.from, to: turn.to, cited: terms.length > 0, terms });
  }
  return events;
}

// ---- packet quality ----

const CUSTOMER_ID_KEYS = new Set(['user_id', 'customer_id']);
const isEntityIdKey = (key: string) => key.endsWith('_id') && !CUSTOMER_ID_KEYS.has(key);

const numeric = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(?:\.\d+)?$/.test(v.trim())) return Number(v.trim());
  return null;
};

/** Same value: equal strings (trimmed), or equal numbers however written ("50.00" and 50). */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && a.trim() === b.trim()) return true;
  const na = numeric(a);
  const nb = numeric(b);
  return na !== null && nb !== null && na === nb;
}

const asRecord = (v: unknown): Record<string, unknown> | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

/** Every object in a JSON value, depth first. */
function objectsIn(value: unknown, into: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) value.forEach((v) => objectsIn(v, into));
  else {
    const object = asRecord(value);
    if (object) {
      into.push(object);
      Object.values(object).forEach((v) => objectsIn(v, into));
    }
  }
  return into;
}

/** Whether `text` names `id` as a whole token. */
const names = (text: string, id: string) =>
  new RegExp(`(?<![A-Za-z0-9_])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`, 'i').test(text);

/** A packet's facts and actions, as far as they come from calls that succeeded before the hand-off. */
interface PacketView {
  customer: Record<string, unknown> | null;
  intent: Record<string, unknown> | null;
  facts: { source: string; field: string; path: string; value: unknown; at: unknown }[];
  actions: { status: unknown; tool: string; arguments: Record<string, unknown> }[];
}

function viewOf(packet: Record<string, unknown>, tools: ReadonlySet<string>): PacketView {
  const list = (v: unknown) => (Array.isArray(v) ? v.map(asRecord).filter((x) => x !== null) : []);
  return {
    customer: asRecord(packet['customer']),
    intent: asRecord(packet['intent']),
    facts: list(packet['facts'])
      .filter((f) => tools.has(String(f['source'])))
      .map((f) => {
        const field = String(f['field']);
        const dot = field.lastIndexOf('.');
        return {
          source: String(f['source']),
          field: field.slice(dot + 1),
          path: field.slice(0, Math.max(dot, 0)),
          value: f['value'],
          at: f['at'],
        };
      }),
    actions: list(packet['actions'])
      .filter((a) => tools.has(String(a['tool'])))
      .map((a) => ({ status: a['status'], tool: String(a['tool']), arguments: asRecord(a['arguments']) ?? {} })),
  };
}

/** Scalars of an action's arguments (lists included). */
const argumentValues = (args: Record<string, unknown>): unknown[] => Object.values(args).flatMap((v) => (Array.isArray(v) ? v : [v]));

/** A packet fact value equals `wanted` (a list the packet joined with commas counts when one of its items does). */
const factHas = (value: unknown, wanted: string) =>
  sameValue(value, wanted) || (typeof value === 'string' && value.includes(', ') && value.split(', ').some((v) => sameValue(v, wanted)));

/**
 * The facts a hand-off's packet must carry, read from the tool log before the hand-off, and
 * whether the packet carries each, traceable to a tool result (a fact whose source is a call that
 * succeeded, or an action of such a call):
 * - `customer_id`: when a call identified the customer (an identity lookup's answer, else the
 *   first `user_id`/`customer_id` argument of a successful call), the packet's customer id;
 * - `verification`: always; the packet's verified flag equals whether the domain's authentication
 *   succeeded before the hand-off;
 * - `intent`: when the customer wrote before the hand-off, a stated intent;
 * - `id`: every id involved: an `…_id` argument of a successful call, or an `…_id` value of a
 *   successful output that the conversation names before the hand-off (the customer's or the
 *   agent's text, or the hand-off's own arguments); customer ids are the first item's business;
 * - `amount`: the `amount` of the output object each involved id heads (its first key is that id),
 *   carried next to that id (the same call's fact group) or in one action's arguments with it;
 * - `action`: every write that succeeded, as a succeeded action of that tool.
 * A missing packet carries none of them.
 */
export function requiredPacketFacts(
  domain: Domain,
  messages: readonly TrajectoryMessage[],
  transferOrdinal: number,
  packet: Record<string, unknown> | null,
): RequiredFact[] {
  const results = toolResults(messages);
  const all = toolCallsOf(messages);
  const transfer = all.find((c) => c.ordinal === transferOrdinal);
  const transferMessage = transfer?.message ?? messages.length;
  const ok = all.filter(
    ({ call, ordinal }) =>
      ordinal < transferOrdinal && call.requestor === 'assistant' && !isTransferCall(domain, call.name) && succeeded(results, call.id),
  );
  const tools = new Set(ok.map(({ call }) => call.name));
  const view = packet === null ? null : viewOf(packet, tools);
  const required: RequiredFact[] = [];
  const need = (kind: PacketFactKind, expected: string, check: (p: PacketView) => boolean) =>
    required.push({ kind, expected, present: view !== null && check(view) });

  let customerId: string | null = null;
  for (const { call } of ok) {
    const output = results.get(call.id)?.content.trim() ?? '';
    if (call.name.startsWith('find_') && /^[\w.@+-]{2,80}$/.test(output)) customerId = output;
    for (const key of CUSTOMER_ID_KEYS) {
      const v = call.arguments[key];
      if (customerId === null && typeof v === 'string' && v.trim() !== '') customerId = v.trim();
    }
    if (customerId !== null) break;
  }
  if (customerId !== null) {
    const id = customerId;
    need('customer_id', id, (p) => sameValue(p.customer?.['id'], id));
  }

  const auth = authenticationOrdinal(domain, messages);
  const verified = auth !== null && auth < transferOrdinal;
  need('verification', String(verified), (p) => p.customer?.['verified'] === verified);

  const said = messages.slice(0, transferMessage).filter((m) => m.role === 'user' && (m.content ?? '').trim() !== '');
  if (said.length > 0) {
    need('intent', 'stated', (p) => typeof p.intent?.['stated'] === 'string' && p.intent['stated'].trim() !== '');
  }

  // The conversation up to the hand-off, as the agent and the customer wrote it, and the hand-off's arguments.
  const conversation = [
    ...messages.slice(0, transferMessage + 1).flatMap((m) => (m.role !== 'tool' && m.content ? [m.content] : [])),
    JSON.stringify(transfer?.call.arguments ?? {}),
  ].join('\n');
  const ids = new Set<string>();
  const amountOf = new Map<string, string>();
  for (const { call } of ok) {
    for (const [key, v] of Object.entries(call.arguments))
      if (isEntityIdKey(key) && typeof v === 'string' && v.trim() !== '') ids.add(v.trim());
    for (const object of objectsIn(parseJson(results.get(call.id)?.content ?? ''))) {
      const keys = Object.keys(object).filter(isEntityIdKey);
      for (const key of keys) {
        const v = object[key];
        if (typeof v === 'string' && v.trim() !== '' && names(conversation, v.trim())) ids.add(v.trim());
      }
      // A record about an entity opens with its id (`{"charge_id": …, "amount": …}`); a payment line does not.
      const first = Object.keys(object)[0];
      const head = first !== undefined && isEntityIdKey(first) ? object[first] : undefined;
      const amount = object['amount'];
      if (typeof head === 'string' && numeric(amount) !== null && !amountOf.has(head.trim())) amountOf.set(head.trim(), String(amount));
    }
  }
  for (const id of [...ids].sort(compareText)) {
    need(
      'id',
      id,
      (p) => p.facts.some((f) => factHas(f.value, id)) || p.actions.some((a) => argumentValues(a.arguments).some((v) => sameValue(v, id))),
    );
    const amount = amountOf.get(id);
    if (amount === undefined) continue;
    need(
      'amount',
      `${id}: ${amount}`,
      (p) =>
        p.facts.some(
          (f) =>
            sameValue(f.value, id) &&
            p.facts.some(
              (g) =>
                g.source === f.source && g.at === f.at && g.path === f.path && g.field.endsWith('amount') && sameValue(g.value, amount),
            ),
        ) ||
        p.actions.some((a) => {
          const values = argumentValues(a.arguments);
          return values.some((v) => sameValue(v, id)) && values.some((v) => sameValue(v, amount));
        }),
    );
  }

  const counts = new Map<string, number>();
  for (const { call } of ok) {
    if (!domain.isWrite(call.name)) continue;
    const nth = (counts.get(call.name) ?? 0) + 1;
    counts.set(call.name, nth);
    need('action', call.name, (p) => p.actions.filter((a) => a.status === 'succeeded' && a.tool === call.name).length >= nth);
  }
  return required;
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Whether the trigger of a hand-off due later was already there at `message` (only tool failures are visible in the record). */
function triggerPresent(record: RecordedEpisode, message: number): boolean {
  if (record.kind !== 'tool_outage') return false;
  return record.messages.slice(0, message).some((m) => m.role === 'tool' && m.error);
}

/** The customer turn a hand-off at trajectory message `message` answered. */
const customerTurnAt = (messages: readonly TrajectoryMessage[], message: number) =>
  messages.slice(0, message).filter((m) => m.role === 'user').length;

/**
 * Analyses one episode. `gold` is the task's reference actions (null: none, so the
 * write-outside-reference rule is not judged).
 */
export function analyseEpisode(record: RecordedEpisode, domain: Domain, gold: readonly GoldAction[] | null): EpisodeAnalysis {
  const facts = record.evaluation.handoff;
  const transferred = facts.transferred;
  const should = record.label.should_transfer;
  const handoff_class: HandoffClass = should ? (transferred ? 'tp' : 'fn') : transferred ? 'fp' : 'tn';
  const transferOrdinal = transferred ? facts.toolCall : null;
  const onlyQueue = domain.queues.length === 1 ? (domain.queues[0]?.id ?? null) : null;
  // tau2-bench's transfer names no team: it goes to the domain's one queue.
  const target = transferred ? (facts.target ?? record.handoff?.target ?? onlyQueue) : null;
  const expected = record.label.expected_target;
  const wrong_target = handoff_class === 'tp' && expected !== null ? target !== expected : null;

  let timing: HandoffTiming | null = null;
  if (handoff_class === 'tp' && record.label.due_turn !== null && facts.message !== null) {
    const due = record.label.due_turn;
    const turn = record.handoff?.turn ?? customerTurnAt(record.messages, facts.message);
    const early = turn < due;
    const excused = early && triggerPresent(record, facts.message);
    const lateness = excused ? 0 : turn - due;
    timing = { due_turn: due, turn, lateness, on_time: lateness === 0, early };
  }

  const scored = record.evaluation.status === 'scored';
  return {
    key: record.key,
    task: taskUnitOf(record),
    kind: record.kind,
    style: record.style,
    trial: record.trial,
    scored,
    success: scored ? record.evaluation.success === true : null,
    should_transfer: should,
    transferred,
    handoff_class,
    wrong_target,
    target,
    timing,
    packet: transferOrdinal === null ? null : requiredPacketFacts(domain, record.messages, transferOrdinal, record.packet),
    violations: findViolations(domain, record.messages, gold, transferOrdinal),
    has_reference: gold !== null,
    citations: findCitationEvents(domain.name, record.messages, transferred ? facts.message : null),
  };
}
