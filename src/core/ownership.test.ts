import { describe, expect, it } from 'vitest';
import type { Command } from './commands.js';
import {
  CONVERSATION_STATES,
  ConversationSchema,
  newConversation,
  ownershipOf,
  speakerOf,
  type Conversation,
  type ConversationState,
} from './conversation.js';
import type { AgentId, ConversationId, QueueId, StaffId } from './ids.js';
import type { Owner } from './owner.js';
import { COMMAND_TYPES } from './commands.js';
import { decide, evolve, plan, type RejectionCode } from './ownership.js';
import { OwnershipPolicySchema, type OwnershipPolicy } from './ownership-policy.js';

const agentA = 'agent_a' as AgentId;
const agentB = 'agent_b' as AgentId;
const agentC = 'agent_c' as AgentId;
const queue = 'queue_billing' as QueueId;
const staff1 = 'staff_1' as StaffId;
const staff2 = 'staff_2' as StaffId;
const at = '2026-01-01T00:00:00.000Z';

const policy: OwnershipPolicy = OwnershipPolicySchema.parse({ agentEdges: { [agentA]: [agentB] }, maxAgentTransfers: 1, maxHandoffs: 2 });

const OWNERS: Record<ConversationState, Owner> = {
  AGENT_ACTIVE: { type: 'agent', id: agentA },
  HANDOFF_PENDING: { type: 'queue', id: queue },
  QUEUED: { type: 'queue', id: queue },
  HUMAN_ACTIVE: { type: 'human', id: staff1 },
  AGENT_ASSIST: { type: 'human', id: staff1 },
  CLOSED: { type: 'none' },
};

function inState(state: ConversationState): Conversation {
  const base = newConversation({ id: 'conv_1' as ConversationId, agentId: agentA, channel: 'test', customerId: null, at });
  return {
    ...base,
    ...ownershipOf(state, OWNERS[state])!,
    version: 5,
    lastHumanId: state === 'HUMAN_ACTIVE' || state === 'AGENT_ASSIST' ? staff1 : null,
  };
}

const COMMANDS = {
  handoff_queue: { type: 'RequestHandoff', agent: agentA, target: { type: 'queue', id: queue }, reason: 'customer_request', summary: 's' },
  handoff_agent_edge: { type: 'RequestHandoff', agent: agentA, target: { type: 'agent', id: agentB }, reason: 'specialist', summary: null },
  handoff_agent_no_edge: {
    type: 'RequestHandoff',
    agent: agentA,
    target: { type: 'agent', id: agentC },
    reason: 'specialist',
    summary: null,
  },
  handoff_wrong_agent: { type: 'RequestHandoff', agent: agentB, target: { type: 'queue', id: queue }, reason: 'x', summary: null },
  enqueue: { type: 'EnqueueConversation', queue },
  claim: { type: 'ClaimConversation', staff: staff1 },
  claim_other: { type: 'ClaimConversation', staff: staff2 },
  handback: { type: 'HandBack', staff: staff1, agent: null, notes: 'done', constraints: [] },
  handback_other: { type: 'HandBack', staff: staff2, agent: null, notes: null, constraints: [] },
  start_assist: { type: 'StartAssist', staff: staff1 },
  end_assist: { type: 'EndAssist', staff: staff1 },
  transfer_queue: { type: 'TransferConversation', staff: staff1, to: { type: 'queue', id: queue } },
  transfer_human: { type: 'TransferConversation', staff: staff1, to: { type: 'human', id: staff2 } },
  transfer_other: { type: 'TransferConversation', staff: staff2, to: { type: 'queue', id: queue } },
  close_customer: { type: 'CloseConversation', by: { type: 'customer' }, reason: 'resolved' },
  close_owner_agent: { type: 'CloseConversation', by: { type: 'agent', id: agentA }, reason: 'resolved' },
  close_owner_human: { type: 'CloseConversation', by: { type: 'human', id: staff1 }, reason: 'resolved' },
  close_non_owner_agent: { type: 'CloseConversation', by: { type: 'agent', id: agentB }, reason: 'resolved' },
} satisfies Record<string, Command>;
type CommandName = keyof typeof COMMANDS;

type Expected = RejectionCode | `${ConversationState} ${string}`;
const human = (s: StaffId) => `human:${s}`;

/** Every state × every command: the resulting `STATE owner` or the rejection code. */
const TABLE: Record<ConversationState, Record<CommandName, Expected>> = {
  AGENT_ACTIVE: {
    handoff_queue: `HANDOFF_PENDING queue:${queue}`,
    handoff_agent_edge: `AGENT_ACTIVE agent:${agentB}`,
    handoff_agent_no_edge: 'edge_not_allowed',
    handoff_wrong_agent: 'not_owner',
    enqueue: 'invalid_state',
    claim: `HUMAN_ACTIVE ${human(staff1)}`,
    claim_other: `HUMAN_ACTIVE ${human(staff2)}`,
    handback: 'invalid_state',
    handback_other: 'invalid_state',
    start_assist: 'invalid_state',
    end_assist: 'invalid_state',
    transfer_queue: 'invalid_state',
    transfer_human: 'invalid_state',
    transfer_other: 'invalid_state',
    close_customer: 'CLOSED none',
    close_owner_agent: 'CLOSED none',
    close_owner_human: 'not_owner',
    close_non_owner_agent: 'not_owner',
  },
  HANDOFF_PENDING: {
    handoff_queue: 'invalid_state',
    handoff_agent_edge: 'invalid_state',
    handoff_agent_no_edge: 'invalid_state',
    handoff_wrong_agent: 'invalid_state',
    enqueue: `QUEUED queue:${queue}`,
    claim: `HUMAN_ACTIVE ${human(staff1)}`,
    claim_other: `HUMAN_ACTIVE ${human(staff2)}`,
    handback: 'invalid_state',
    handback_other: 'invalid_state',
    start_assist: 'invalid_state',
    end_assist: 'invalid_state',
    transfer_queue: 'invalid_state',
    transfer_human: 'invalid_state',
    transfer_other: 'invalid_state',
    close_customer: 'CLOSED none',
    close_owner_agent: 'not_owner',
    close_owner_human: 'not_owner',
    close_non_owner_agent: 'not_owner',
  },
  QUEUED: {
    handoff_queue: 'invalid_state',
    handoff_agent_edge: 'invalid_state',
    handoff_agent_no_edge: 'invalid_state',
    handoff_wrong_agent: 'invalid_state',
    enqueue: `QUEUED queue:${queue}`,
    claim: `HUMAN_ACTIVE ${human(staff1)}`,
    claim_other: `HUMAN_ACTIVE ${human(staff2)}`,
    handback: 'invalid_state',
    handback_other: 'invalid_state',
    start_assist: 'invalid_state',
    end_assist: 'invalid_state',
    transfer_queue: 'invalid_state',
    transfer_human: 'invalid_state',
    transfer_other: 'invalid_state',
    close_customer: 'CLOSED none',
    close_owner_agent: 'not_owner',
    close_owner_human: 'not_owner',
    close_non_owner_agent: 'not_owner',
  },
  HUMAN_ACTIVE: {
    handoff_queue: 'invalid_state',
    handoff_agent_edge: 'invalid_state',
    handoff_agent_no_edge: 'invalid_state',
    handoff_wrong_agent: 'invalid_state',
    enqueue: 'invalid_state',
    claim: 'already_claimed',
    claim_other: 'already_claimed',
    handback: `AGENT_ACTIVE agent:${agentA}`,
    handback_other: 'not_owner',
    start_assist: `AGENT_ASSIST ${human(staff1)}`,
    end_assist: 'invalid_state',
    transfer_queue: `QUEUED queue:${queue}`,
    transfer_human: `HUMAN_ACTIVE ${human(staff2)}`,
    transfer_other: 'not_owner',
    close_customer: 'CLOSED none',
    close_owner_agent: 'not_owner',
    close_owner_human: 'CLOSED none',
    close_non_owner_agent: 'not_owner',
  },
  AGENT_ASSIST: {
    handoff_queue: 'invalid_state',
    handoff_agent_edge: 'invalid_state',
    handoff_agent_no_edge: 'invalid_state',
    handoff_wrong_agent: 'invalid_state',
    enqueue: 'invalid_state',
    claim: 'already_claimed',
    claim_other: 'already_claimed',
    handback: `AGENT_ACTIVE agent:${agentA}`,
    handback_other: 'not_owner',
    start_assist: 'invalid_state',
    end_assist: `HUMAN_ACTIVE ${human(staff1)}`,
    transfer_queue: `QUEUED queue:${queue}`,
    transfer_human: `HUMAN_ACTIVE ${human(staff2)}`,
    transfer_other: 'not_owner',
    close_customer: 'CLOSED none',
    close_owner_agent: 'not_owner',
    close_owner_human: 'CLOSED none',
    close_non_owner_agent: 'not_owner',
  },
  CLOSED: Object.fromEntries(Object.keys(COMMANDS).map((k) => [k, 'closed'])) as Record<CommandName, Expected>,
};

const ownerText = (o: Owner) => (o.type === 'none' ? 'none' : `${o.type}:${o.id}`);
const cases = CONVERSATION_STATES.flatMap((state) =>
  (Object.keys(COMMANDS) as CommandName[]).map((name) => ({ state, name, expected: TABLE[state][name] })),
);

describe('ownership transitions: every state × every command', () => {
  it('the table covers every state and every command type', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...CONVERSATION_STATES].sort());
    const covered = new Set(Object.values(COMMANDS).map((c) => c.type));
    expect([...covered].sort()).toEqual([...COMMAND_TYPES].sort());
  });

  it.each(cases)('$state + $name → $expected', ({ state, name, expected }) => {
    const before = inState(state);
    const result = plan(before, COMMANDS[name], policy, at);
    if (!result.ok) {
      expect(result.rejection.code).toBe(expected);
      expect(result.rejection.message.length).toBeGreaterThan(10);
      return;
    }
    expect(`${result.next.state} ${ownerText(result.next.owner)}`).toBe(expected);
    expect(result.next.version).toBe(before.version + 1);
    expect(result.events).toHaveLength(1);
    expect(result.events[0]!.data.from).toEqual({ state: before.state, owner: before.owner });
  });
});

describe('rules inside the machine', () => {
  const active = () => inState('AGENT_ACTIVE');

  it('counts hand-offs towards humans and agent-to-agent transfers separately', () => {
    const toQueue = plan(active(), COMMANDS.handoff_queue, policy, at);
    const toAgent = plan(active(), COMMANDS.handoff_agent_edge, policy, at);
    if (!toQueue.ok || !toAgent.ok) throw new Error('expected both to be allowed');
    expect([toQueue.next.handoffCount, toQueue.next.agentTransferCount]).toEqual([1, 0]);
    expect([toAgent.next.handoffCount, toAgent.next.agentTransferCount, toAgent.next.agentId]).toEqual([0, 1, agentB]);
  });

  it('caps agent-to-agent transfers per conversation', () => {
    const capped = { ...active(), agentTransferCount: policy.maxAgentTransfers };
    const result = decide(capped, COMMANDS.handoff_agent_edge, policy);
    expect(result.ok ? 'allowed' : result.rejection.code).toBe('transfer_cap');
  });

  it('ping-pong cap (return_to_previous_human): the next hand-off goes straight back to the last human', () => {
    const capped = { ...active(), handoffCount: policy.maxHandoffs, lastHumanId: staff2 };
    const result = plan(capped, COMMANDS.handoff_queue, policy, at);
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.next.state).toBe('HUMAN_ACTIVE');
    expect(result.next.owner).toEqual({ type: 'human', id: staff2 });
    expect(result.events[0]).toMatchObject({ type: 'handoff.requested', data: { route: 'previous_human' } });
  });

  it('past the cap, a previous human off shift gets nothing: the hand-off goes to the queue asked for', () => {
    const capped = { ...active(), handoffCount: policy.maxHandoffs, lastHumanId: staff2 };
    const off = plan(capped, { ...COMMANDS.handoff_queue, previousHumanOnShift: false }, policy, at);
    if (!off.ok) throw new Error(off.rejection.message);
    expect(off.next.state).toBe('HANDOFF_PENDING');
    expect(off.events[0]).toMatchObject({ type: 'handoff.requested', data: { route: 'queue' } });
    const on = plan(capped, { ...COMMANDS.handoff_queue, previousHumanOnShift: true }, policy, at);
    expect(on.ok && on.next.owner).toEqual({ type: 'human', id: staff2 });
  });

  it('below the cap, or with no previous human, a hand-off goes to the queue', () => {
    for (const conv of [
      { ...active(), handoffCount: policy.maxHandoffs - 1, lastHumanId: staff2 },
      { ...active(), handoffCount: policy.maxHandoffs, lastHumanId: null },
    ]) {
      const result = plan(conv, COMMANDS.handoff_queue, policy, at);
      expect(result.ok && result.next.state).toBe('HANDOFF_PENDING');
    }
  });

  it('ping-pong cap (stay_with_human): hand-back is refused once the cap is reached', () => {
    const stay = { ...policy, pingPong: 'stay_with_human' as const };
    const atCap = { ...inState('HUMAN_ACTIVE'), handoffCount: stay.maxHandoffs };
    const below = { ...inState('HUMAN_ACTIVE'), handoffCount: stay.maxHandoffs - 1 };
    const refused = decide(atCap, COMMANDS.handback, stay);
    expect(refused.ok ? 'allowed' : refused.rejection.code).toBe('pingpong_cap');
    expect(decide(below, COMMANDS.handback, stay).ok).toBe(true);
    expect(decide(atCap, COMMANDS.close_owner_human, stay).ok).toBe(true);
  });

  it('hand-back carries the human’s constraints onto the conversation and may name another agent', () => {
    const constraint = { tool: 'refund_charge', args: { order_id: '7731' }, note: 'no refund for order 7731' };
    const result = plan(
      inState('HUMAN_ACTIVE'),
      { type: 'HandBack', staff: staff1, agent: agentC, notes: 'no refund', constraints: [constraint] },
      policy,
      at,
    );
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.next.constraints).toEqual([constraint]);
    expect(result.next.agentId).toBe(agentC);
    expect(result.next.owner).toEqual({ type: 'agent', id: agentC });
  });

  it('records the claiming human and the queueing time', () => {
    const queued = plan(inState('HANDOFF_PENDING'), COMMANDS.enqueue, policy, '2026-02-02T00:00:00.000Z');
    if (!queued.ok) throw new Error(queued.rejection.message);
    expect(queued.next.queuedAt).toBe('2026-02-02T00:00:00.000Z');
    const claimed = plan(queued.next, COMMANDS.claim_other, policy, at);
    if (!claimed.ok) throw new Error(claimed.rejection.message);
    expect(claimed.next.lastHumanId).toBe(staff2);
    expect(claimed.next.queuedAt).toBeNull();
  });

  it('evolve refuses to apply events before the conversation exists', () => {
    const claimed = plan(inState('AGENT_ACTIVE'), COMMANDS.claim, policy, at);
    if (!claimed.ok) throw new Error(claimed.rejection.message);
    expect(() => evolve(null, { ...claimed.events[0]!, at })).toThrow(/before conversation.created/);
  });
});

describe('who may speak', () => {
  const table: Array<[ConversationState, string | null]> = [
    ['AGENT_ACTIVE', `agent:${agentA}`],
    ['HANDOFF_PENDING', 'system'],
    ['QUEUED', 'system'],
    ['HUMAN_ACTIVE', `human:${staff1}`],
    ['AGENT_ASSIST', `human:${staff1}`],
    ['CLOSED', null],
  ];
  it.each(table)('%s → %s', (state, speaker) => {
    expect(speakerOf(inState(state))).toBe(speaker);
  });
});

describe('ownership is one union of state and owner', () => {
  it('refuses every state with an owner that state does not allow, in the schema and in evolve', () => {
    const base = inState('AGENT_ACTIVE');
    const owners: Owner[] = Object.values(OWNERS);
    for (const state of CONVERSATION_STATES) {
      for (const owner of owners) {
        const legal = owner.type === OWNERS[state].type;
        expect(ConversationSchema.safeParse({ ...base, state, owner }).success).toBe(legal);
        expect(ownershipOf(state, owner) !== null).toBe(legal);
      }
    }
    const bad = {
      type: 'conversation.claimed',
      at,
      data: {
        version: 6,
        state: 'AGENT_ACTIVE',
        owner: OWNERS.HUMAN_ACTIVE,
        from: { state: 'QUEUED', owner: OWNERS.QUEUED },
        staff: staff1,
      },
    } as const;
    expect(() => evolve(base, bad)).toThrow(/no state allows/);
  });
});
