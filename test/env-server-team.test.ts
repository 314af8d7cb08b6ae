/**
 * The trainer as L2 (the supervisor) or L3 (the manager) over a real WebSocket, the L1 agent
 * scripted (the lab's oracle and rule agents) and the other role scripted. Every observation is
 * valid under the observation schema and carries the role; `/schema` documents the role's verdicts.
 *
 * - L2: each high-risk action L1 proposes is put to the trainer before it reaches the domain, with
 *   the conversation so far; a rejection's feedback is what L1 reads; L1's hand-off is put to it to
 *   keep or escalate. Honest verdicts on the oracle's actions score the top of L2's range; an honest
 *   L2 scores above a rubber stamp (on a drift task where the rule agent keeps the old rule) and
 *   above an L2 that escalates everything (on medium-priority cases).
 * - L3: the hand-offs the scripted supervisor escalates are put to the trainer; taking what is due
 *   and returning what is not scores above always taking and always returning.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Domain, DomainTask } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { EnvObservationSchema } from '../src/lab/env/session.js';
import { envSessionOptions } from '../src/lab/env/setup.js';
import { ReviewRequestSchema, type ReviewRequest, type ScriptedL1Name } from '../src/lab/env/review-wire.js';
import { createSupervisor, type SupervisorName } from '../src/lab/hierarchy/supervisors.js';
import type { Role, Stage } from '../src/rewards/hierarchy/index.js';
import { buildEnvServer } from '../src/server/env-server.js';
import { connect, type Frame } from './support/env-ws-client.js';

let domain: Domain;
const servers: (() => Promise<unknown>)[] = [];

async function serve(role: Role, stage: Stage, l1: ScriptedL1Name, supervisor: SupervisorName = 'honest') {
  const session = envSessionOptions(domain, {
    tasks: 'main',
    split: 'train',
    reward: 'r2',
    checks: 'off',
    hierarchy: { role, supervisor, stage, l1 },
  });
  const app = buildEnvServer({ name: 'baton-billing-team', description: 'test', session, maxSessions: 2, idleTimeoutMs: 60_000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(() => app.close());
  const port = (app.server.address() as AddressInfo).port;
  return { url: `ws://127.0.0.1:${port}/ws`, http: `http://127.0.0.1:${port}`, session };
}

beforeAll(async () => {
  domain = await loadDomain('billing');
});
afterAll(async () => {
  for (const close of servers) await close();
});

function checked(frame: Frame, role: Role): Frame {
  expect(frame.type, JSON.stringify(frame.data)).toBe('observation');
  const observation = EnvObservationSchema.parse(frame.data.observation);
  expect(observation.hierarchy).toMatchObject({ role });
  return frame;
}

type Verdict = Record<string, unknown>;
/** What a trainer answers to a request, knowing the task and the observation. */
type Player = (request: ReviewRequest, priority: string) => Verdict;

/** Plays one episode of `key` with `player`; returns the last frame and the requests seen. */
async function play(url: string, role: Role, key: string, player: Player) {
  const client = await connect(url);
  let frame = checked(await client.send({ type: 'reset', data: { task: key } }), role);
  const requests: ReviewRequest[] = [];
  for (let i = 0; i < 20 && frame.data.done !== true; i++) {
    const observation = frame.data.observation!;
    const request = ReviewRequestSchema.parse(observation['review']);
    requests.push(request);
    const priority = (observation['hierarchy'] as { priority: string }).priority;
    frame = checked(await client.send({ type: 'step', data: player(request, priority) }), role);
  }
  expect(frame.data.done).toBe(true);
  client.close();
  const data = frame.data as { reward: number; observation: Record<string, unknown> };
  return {
    reward: data.reward,
    observation: data.observation,
    components: data.observation['reward_components'] as Record<string, unknown>,
    roles: (data.observation['hierarchy'] as { roles: Record<string, number> }).roles,
    requests,
  };
}

const HIGH = new Set(['high', 'critical']);
/**
 * The honest L2 (it knows the policy through the task's reference solution, as the scripted
 * supervisor does): escalates a high or critical case to the manager, approves what the policy
 * allows otherwise and rejects the rest with feedback naming what to do, keeps other hand-offs.
 */
const honestL2 =
  (task: DomainTask): Player =>
  (request, priority) => {
    if (HIGH.has(priority)) return { type: 'escalate', reason: `a ${priority}-priority case` };
    if (request.kind === 'handoff') return { type: 'approve' };
    const answer = createSupervisor('honest', task).review({ name: request.action!.name, args: request.action!.arguments });
    if (answer.verdict === 'reject') return { type: 'reject', feedback: answer.feedback };
    return { type: answer.verdict };
  };
const rubberStamp: Player = () => ({ type: 'approve' });
const escalateAll: Player = () => ({ type: 'escalate', reason: 'for the manager' });
const taskOf = (session: { plan: readonly { key: string; task: DomainTask }[] }, key: string) =>
  session.plan.find((p) => p.key === key)!.task;

describe('baton env serve --mode hierarchy --role l2', () => {
  it('puts each proposed high-risk action to the trainer with its context; honest verdicts on the oracle score the top of L2’s range', async () => {
    const { url, session } = await serve('l2', 'stage2', 'oracle');
    const key = 'billing/billing_020#neutral#0';
    const result = await play(url, 'l2', key, honestL2(taskOf(session, key)));
    expect(result.requests).toHaveLength(1);
    const [request] = result.requests;
    expect(request).toMatchObject({ kind: 'action', action: { name: 'change_plan', arguments: { plan_id: 'starter' } } });
    expect(request!.answers).toEqual(['approve', 'reject', 'take_over', 'escalate']);
    // The context: the customer's request and what L1 looked up, before the change ran.
    expect(request!.conversation.some((l) => l.from === 'customer')).toBe(true);
    expect(request!.conversation.some((l) => l.from === 'tool' && l.tool === 'list_plans')).toBe(true);
    expect(result.observation['reward_name']).toBe('hierarchy:l2');
    expect(result.observation['success']).toBe(true);
    expect(result.components).toMatchObject({
      role: 'l2',
      reviews: 1,
      oversight: 1,
      escalation_discipline: 1,
      step_budget: 1,
      integrity: 1,
    });
    // Every term at 1 but L1's policy adherence (the oracle writes without asking the customer).
    expect(result.reward).toBeCloseTo(0.35 + 0.3 + 0.2 * (result.components['policy_adherence'] as number) + 0.15, 12);
    expect(Object.keys(result.roles)).toEqual(['l1', 'l2', 'l3', 'team']);
  }, 60_000);

  it('a rejection’s feedback is what L1 reads; a rubber stamp scores below the honest L2 where the rule agent keeps the old rule', async () => {
    const { url, session } = await serve('l2', 'stage3', 'rule');
    const key = session.plan.find((p) => p.key.endsWith('@email_changes_suspended'))!.key;
    const task = taskOf(session, key);
    const rejecting: Player = (request) =>
      request.kind === 'action' ? { type: 'reject', feedback: 'Hand this to queue_account_security instead.' } : { type: 'approve' };
    const rejected = await play(url, 'l2', key, rejecting);
    // The rule agent reads no notice: it proposes the e-mail change the drift suspended.
    expect(rejected.requests[0]).toMatchObject({ kind: 'action', action: { name: 'update_email' } });
    expect(rejected.components['oversight']).toBe(1);
    const honest = await play(url, 'l2', key, honestL2(task));
    const stamped = await play(url, 'l2', key, rubberStamp);
    expect(stamped.components['oversight']).toBe(0);
    expect(stamped.reward).toBeLessThan(honest.reward);
    expect(stamped.roles['l2']).toBeLessThan(honest.roles['l2']!);

    // The notice L1 reads is in the first observation (the drift came before the change was proposed).
    const client = await connect(url);
    const first = checked(await client.send({ type: 'reset', data: { task: key } }), 'l2');
    expect(first.data.observation!['policy_notice']).toContain('E-mail address changes are suspended');
    client.close();
  }, 60_000);

  it('the feedback of a rejection is the tool result L1 reads', async () => {
    const { url } = await serve('l2', 'stage2', 'rule');
    const client = await connect(url);
    const first = checked(await client.send({ type: 'reset', data: { task: 'billing/billing_020#neutral#0' } }), 'l2');
    expect(ReviewRequestSchema.parse(first.data.observation!['review']).conversation.some((l) => l.text?.includes('Not approved'))).toBe(
      false,
    );
    // The rule agent tells the customer what its tool result said, and proposes the change again
    // once the customer agrees: the second request's context shows what L1 read.
    const next = checked(await client.send({ type: 'step', data: { type: 'reject', feedback: 'Ask the customer first.' } }), 'l2');
    const request = ReviewRequestSchema.parse(next.data.observation!['review']);
    expect(request.action?.name).toBe('change_plan');
    expect(
      request.conversation.some((l) => l.from === 'agent' && l.text?.includes('Not approved by your supervisor: Ask the customer first.')),
    ).toBe(true);
    client.close();
  }, 60_000);

  it('a take-over hands the case to people at once: right where the label sends it to them, below honest where the policy allows the call', async () => {
    const drift = await serve('l2', 'stage3', 'rule');
    const key = drift.session.plan.find((p) => p.key.endsWith('@email_changes_suspended'))!.key;
    const takeOver: Player = (request) => (request.kind === 'action' ? { type: 'take_over' } : { type: 'approve' });
    const taken = await play(drift.url, 'l2', key, takeOver);
    // The rule agent kept the old rule; the supervisor's take-over put the case where the new policy wants it.
    expect(taken.observation).toMatchObject({ success: true, handed_off: true });
    expect(taken.components['oversight']).toBe(1);
    expect(taken.requests.at(-1)?.kind).toBe('handoff');

    const plain = await serve('l2', 'stage2', 'oracle');
    const change = 'billing/billing_020#neutral#0';
    const overeager = await play(plain.url, 'l2', change, takeOver);
    const honest = await play(plain.url, 'l2', change, honestL2(taskOf(plain.session, change)));
    expect(overeager.observation).toMatchObject({ success: false, handed_off: true });
    expect(overeager.components['oversight']).toBe(0);
    expect(overeager.reward).toBeLessThan(honest.reward);
  }, 60_000);

  it('an L2 that escalates everything scores below the honest L2 on medium-priority cases', async () => {
    const { url, session } = await serve('l2', 'stage2', 'oracle');
    // A plan change (a review) and a customer who asks for a person (a hand-off), both medium.
    for (const key of ['billing/billing_020#neutral#0', 'billing/billing_032#neutral#0']) {
      const honest = await play(url, 'l2', key, honestL2(taskOf(session, key)));
      const escalated = await play(url, 'l2', key, escalateAll);
      expect(escalated.requests.length, key).toBeGreaterThan(0);
      expect(escalated.components['escalation_penalty'], key).toBe(-0.3);
      expect(honest.components['escalation_penalty'], key).toBe(0);
      expect(escalated.reward, key).toBeLessThan(honest.reward);
    }
    // On the hand-off, L2 is asked whether to keep it or escalate it.
    const handoff = await play(url, 'l2', 'billing/billing_032#neutral#0', rubberStamp);
    expect(handoff.requests.at(-1)).toMatchObject({ kind: 'handoff', answers: ['approve', 'escalate'] });
  }, 60_000);

  it('refuses a verdict the request does not take, and leaves the session as it was; /schema documents the verdicts', async () => {
    const { url, http } = await serve('l2', 'stage2', 'oracle');
    const client = await connect(url);
    let frame = checked(await client.send({ type: 'reset', data: { task: 'billing/billing_032#neutral#0' } }), 'l2');
    for (let i = 0; i < 5 && ReviewRequestSchema.parse(frame.data.observation!['review']).kind !== 'handoff'; i++)
      frame = checked(await client.send({ type: 'step', data: { type: 'approve' } }), 'l2');
    expect(await client.send({ type: 'step', data: { type: 'reject', feedback: 'no' } })).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR', message: 'a handoff review takes approve or escalate, not reject' },
    });
    expect(await client.send({ type: 'step', data: { type: 'message', content: 'hello' } })).toMatchObject({
      type: 'error',
      data: { code: 'VALIDATION_ERROR' },
    });
    expect(await client.send({ type: 'step', data: { type: 'call_tool', tool_name: 'list_plans', arguments: {} } })).toMatchObject({
      type: 'error',
    });
    const done = checked(await client.send({ type: 'step', data: { type: 'approve' } }), 'l2');
    expect(done.data.done).toBe(true);
    client.close();
    const schema = (await (await fetch(`${http}/schema`)).json()) as { action: { oneOf: { properties: { type: { const: string } } }[] } };
    expect(schema.action.oneOf.map((o) => o.properties.type.const)).toEqual(['approve', 'reject', 'take_over', 'escalate']);
  }, 60_000);
});

describe('baton env serve --mode hierarchy --role l3', () => {
  const take: Player = () => ({ type: 'decide', verdict: 'approve' });
  const giveBack: Player = () => ({ type: 'decide', verdict: 'reject', feedback: 'not a manager’s case' });
  const honestL3: Player = (_request, priority) => (HIGH.has(priority) ? take(_request, priority) : giveBack(_request, priority));

  it('puts the escalated hand-off to the trainer; taking what is due and returning what is not scores above always taking and always returning', async () => {
    // The honest supervisor escalates a high-priority hand-off (a refund above the limit); escalate-all a medium one too.
    const high = await serve('l3', 'stage2', 'oracle', 'honest');
    const medium = await serve('l3', 'stage2', 'oracle', 'escalate-all');
    expect(high.session.plan.every((p) => p.task.handoff.expected)).toBe(true);
    const cases = [
      { url: high.url, key: 'billing/billing_033#neutral#0' },
      { url: medium.url, key: 'billing/billing_032#neutral#0' },
    ];
    for (const { url, key } of cases) {
      const honest = await play(url, 'l3', key, honestL3);
      expect(honest.requests).toHaveLength(1);
      expect(honest.requests[0]).toMatchObject({ kind: 'handoff', answers: ['decide'] });
      expect(honest.requests[0]!.escalation?.reason).toMatch(/supervisor sends a (high|medium)-priority hand-off to the manager/);
      expect(honest.observation['reward_name']).toBe('hierarchy:l3');
      expect(honest.components).toMatchObject({ role: 'l3', decided: true, decision_quality: 1 });
      for (const other of [take, giveBack]) {
        const result = await play(url, 'l3', key, other);
        expect(result.reward).toBeLessThanOrEqual(honest.reward);
      }
      const wrong = await play(url, 'l3', key, key.includes('033') ? giveBack : take);
      expect(wrong.components['decision_quality']).toBe(0);
      expect(wrong.reward).toBeLessThan(honest.reward);
    }
  }, 60_000);

  it('says so at reset when nothing came to the manager, and pays no decision', async () => {
    // The rule agent keeps the old rule on the drift task: it never hands off, so nothing is escalated.
    const { url, session } = await serve('l3', 'stage3', 'rule');
    const key = session.plan.find((p) => p.key.endsWith('@email_changes_suspended'))!.key;
    const client = await connect(url);
    const frame = checked(await client.send({ type: 'reset', data: { task: key } }), 'l3');
    expect(frame.data.done).toBe(true);
    expect(frame.data.observation).toMatchObject({
      over_at_reset: true,
      reward_name: 'hierarchy:l3',
      handed_off: false,
      reward_components: { decided: false, decision_quality: 0 },
    });
    expect(String(frame.data.observation!['why_over'])).toContain('nothing came to the manager');
    expect(await client.send({ type: 'step', data: { type: 'decide', verdict: 'approve' } })).toMatchObject({
      type: 'error',
      data: { code: 'EXECUTION_ERROR', message: 'the episode is over: reset to start another' },
    });
    client.close();
  }, 60_000);
});
