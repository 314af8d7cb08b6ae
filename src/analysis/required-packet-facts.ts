/**
 * Packet quality (METRICS.md): the facts a hand-off's context packet must carry, read from the tool
 * log before the hand-off, and whether the packet carries each, traceable to a tool result.
 */
import type { Domain } from '../domains/domain.js';
import { toolCallsOf, type TrajectoryMessage } from '../domains/trajectory.js';
import { authenticationOrdinal, isTransferCall, succeeded, toolResults } from './trajectory-calls.js';

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
