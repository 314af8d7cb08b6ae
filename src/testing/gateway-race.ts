import { auditLog, seededRandom, type ConversationId, type QueueId, type Random, type StaffId } from '../core/index.js';
import type { Gateway } from '../runtime/gateway.js';
import type { Store } from '../store/store.js';
import { TEST_AGENT } from './gateway-fixture.js';

/** What the gateway promised about one conversation: messages it acknowledged as stored or delivered. */
export interface Acknowledged {
  inbound: Set<string>;
  delivered: Set<string>;
}

/** Counters of an audit over many conversations; every counter but the first three must be zero. */
export interface RaceCounters {
  conversations: number;
  delivered: number;
  suppressed: number;
  /** Customer-visible messages from someone who was not allowed to speak at that point of the log. */
  double_replies: number;
  /** Acknowledged messages (inbound stored, outbound delivered) missing from the store. */
  lost_messages: number;
  /** Transitions whose version is not the previous one plus one. */
  version_violations: number;
  /** Conversations whose stored state differs from the replay of their log. */
  replay_mismatches: number;
  /** Any other broken log invariant (gaps, duplicates, unlogged messages). */
  other_violations: number;
}

export const emptyCounters = (): RaceCounters => ({
  conversations: 0,
  delivered: 0,
  suppressed: 0,
  double_replies: 0,
  lost_messages: 0,
  version_violations: 0,
  replay_mismatches: 0,
  other_violations: 0,
});

/**
 * Audits conversations in a store against the gateway's promises: replays each log (see
 * `auditLog`), compares the replay with the stored conversation, and checks that every
 * acknowledged message is there.
 */
export async function auditConversations(
  store: Store,
  ids: readonly ConversationId[],
  acknowledged: ReadonlyMap<string, Acknowledged> = new Map(),
): Promise<RaceCounters> {
  const counters = emptyCounters();
  for (const id of ids) {
    const [conversation, events, messages] = await Promise.all([store.getConversation(id), store.listEvents(id), store.listMessages(id)]);
    counters.conversations += 1;
    const audit = auditLog(events, messages);
    for (const v of audit.violations) {
      if (v.kind === 'double_reply') counters.double_replies += 1;
      else if (v.kind === 'version') counters.version_violations += 1;
      else counters.other_violations += 1;
    }
    if (JSON.stringify(audit.replayed) !== JSON.stringify(conversation)) counters.replay_mismatches += 1;
    counters.delivered += events.filter((e) => e.type === 'message.sent').length;
    counters.suppressed += events.filter((e) => e.type === 'message.suppressed').length;
    const stored = new Set<string>(messages.map((m) => m.id));
    const ack = acknowledged.get(id);
    for (const messageId of [...(ack?.inbound ?? []), ...(ack?.delivered ?? [])]) {
      if (!stored.has(messageId)) counters.lost_messages += 1;
    }
  }
  return counters;
}

const yieldTimes = async (random: Random) => {
  for (let i = random.int(0, 4); i > 0; i -= 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

type Scenario = 'takeover' | 'handoff' | 'handback';
const SCENARIOS: readonly Scenario[] = ['takeover', 'handoff', 'handback'];

/**
 * One randomised race on a fresh conversation: the agent's reply (generated before, sent after
 * some yields) against a human taking over, a hand-off being claimed, or a hand-back; with
 * customer messages, one of them redelivered, arriving throughout.
 */
async function interleave(gateway: Gateway, random: Random, index: number, ack: Map<string, Acknowledged>): Promise<ConversationId> {
  const c = await gateway.open();
  const mine: Acknowledged = { inbound: new Set(), delivered: new Set() };
  ack.set(c.id, mine);
  const staff = `staff_${random.int(1, 5)}` as StaffId;
  const queue = `queue_${random.pick(['billing', 'general'])}` as QueueId;
  const agent = { type: 'agent', id: TEST_AGENT } as const;
  const human = { type: 'human', id: staff } as const;
  const scenario = random.pick(SCENARIOS);
  const track = async (p: ReturnType<Gateway['send']>) => {
    const r = await p;
    if (r.ok && r.delivered) mine.delivered.add(r.message.id);
  };
  // Decide every random choice up front, so that the seed fixes them whatever the interleaving.
  const delays = Array.from({ length: 8 }, () => seededRandom(random.int(0, 2 ** 31)));

  if (scenario === 'handback') {
    await gateway.claim(c.id, staff);
  }
  const customer = async () => {
    const n = random.int(1, 3);
    for (let i = 0; i < n; i += 1) {
      await yieldTimes(delays[0]!);
      const key = `${index}-${i}`;
      const r = await gateway.receive(c.id, { text: `customer message ${i}`, idempotencyKey: key });
      if (r.ok) mine.inbound.add(r.message.id);
      if (i === 0) await gateway.receive(c.id, { text: `customer message ${i}`, idempotencyKey: key });
    }
  };
  const agentSide = async () => {
    await yieldTimes(delays[1]!);
    await track(gateway.send(c.id, agent, 'Agent reply (generated before any change of owner)'));
    if (scenario === 'handoff') {
      await gateway.transfer(c.id, {
        agent: TEST_AGENT,
        target: { type: 'queue', id: queue },
        reason: 'customer_request',
        summary: 'wants a person',
      });
      await track(gateway.send(c.id, agent, 'A late agent reply after the hand-off'));
    }
    await yieldTimes(delays[2]!);
    await track(gateway.send(c.id, agent, 'Another agent reply'));
  };
  const humanSide = async () => {
    await yieldTimes(delays[3]!);
    if (scenario === 'takeover') {
      // The console claims with the copy it displayed, which the agent's side may have made stale.
      await gateway.claim(c.id, staff, c);
    } else if (scenario === 'handoff') {
      await gateway.enqueue(c.id, queue);
      await track(gateway.send(c.id, { type: 'system' }, 'A person will be with you shortly.'));
      await yieldTimes(delays[4]!);
      await gateway.claim(c.id, staff, c);
    } else {
      await track(gateway.send(c.id, human, 'Human reply before handing back'));
      await yieldTimes(delays[4]!);
      await gateway.handBack(c.id, { staff, notes: 'back to you', constraints: [] });
    }
    await yieldTimes(delays[5]!);
    await track(gateway.send(c.id, human, 'Human reply'));
  };
  await Promise.all([customer(), agentSide(), humanSide()]);
  return c.id;
}

/** Options of {@link runRaceInterleavings}. */
export interface RaceOptions {
  gateway: Gateway;
  store: Store;
  /** Number of randomised interleavings (one conversation each). */
  count: number;
  /** Interleavings in flight at once (more overlap between conversations on real databases). */
  concurrency?: number;
  seed?: number;
}

/**
 * Runs `count` randomised agent-reply vs human-claim interleavings through the gateway, then
 * audits every conversation they touched. The result's violation counters must all be zero.
 */
export async function runRaceInterleavings(options: RaceOptions): Promise<RaceCounters & { interleavings: number }> {
  const random = seededRandom(options.seed ?? 1);
  const ack = new Map<string, Acknowledged>();
  const ids: ConversationId[] = [];
  let next = 0;
  const seeds = Array.from({ length: options.count }, () => random.int(0, 2 ** 31));
  const worker = async () => {
    while (next < options.count) {
      const index = next++;
      ids.push(await interleave(options.gateway, seededRandom(seeds[index]!), index, ack));
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 32 }, worker));
  return { interleavings: options.count, ...(await auditConversations(options.store, ids, ack)) };
}
