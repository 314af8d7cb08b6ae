/**
 * Hierarchy mode over a real WebSocket: the trainer plays L1 under a scripted supervisor who
 * reviews its high-risk actions. The oracle as L1 scores the top of L1's range (everything but the
 * tone-based empathy at 1) and every observation carries the role, the stage and the priority;
 * an L1 that escalates everything scores below it; the curriculum's stage filters the tasks and
 * sets the density, and serves drift tasks (billing's and tau2-bench airline's); an unknown stage is
 * refused before listening. The trainer as L2 or L3: test/env-server-team.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../src/core/index.js';
import type { Domain, DomainTask } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { runEnvServe } from '../src/cli/env-command.js';
import { EnvObservationSchema } from '../src/lab/env/session.js';
import { envSessionOptions, nextAction } from '../src/lab/env/setup.js';
import type { SupervisorName } from '../src/lab/hierarchy/supervisors.js';
import type { Stage } from '../src/rewards/hierarchy/index.js';
import { buildEnvServer } from '../src/server/env-server.js';
import { connect, type Frame } from './support/env-ws-client.js';
import { tau2Domain } from './support/tau2-domains.js';

let domain: Domain;
const servers: (() => Promise<unknown>)[] = [];

async function serve(stage: Stage, supervisor: SupervisorName = 'honest') {
  const session = envSessionOptions(domain, {
    tasks: 'main',
    split: 'train',
    reward: 'r2',
    checks: 'off',
    hierarchy: { role: 'l1', supervisor, stage },
  });
  const app = buildEnvServer({ name: 'baton-billing-team', description: 'test', session, maxSessions: 2, idleTimeoutMs: 60_000 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  servers.push(() => app.close());
  return { url: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`, session };
}

beforeAll(async () => {
  domain = await loadDomain('billing');
});
afterAll(async () => {
  for (const close of servers) await close();
});

/** Every observation is valid under the served schema and says who plays what. */
function checked(frame: Frame, stage: Stage, supervisor: SupervisorName = 'honest'): Frame {
  expect(frame.type, JSON.stringify(frame.data)).toBe('observation');
  const observation = EnvObservationSchema.parse(frame.data.observation);
  expect(observation.hierarchy).toMatchObject({ role: 'l1', supervisor, stage });
  return frame;
}

describe('baton env serve --mode hierarchy --role l1', () => {
  it('pays the oracle as L1 the top of its range, with every role’s reward and component at the end', async () => {
    const { url } = await serve('stage4');
    const client = await connect(url);
    // A plan change and a cancellation: high-risk writes the supervisor reviews and approves.
    for (const id of ['billing_020', 'billing_008']) {
      const task = domain.tasks.find((t) => t.id === id)!;
      let frame = checked(await client.send({ type: 'reset', data: { task: id } }), 'stage4');
      const oracle = createOraclePolicy(domain, task);
      const mine: ChatMessage[] = [];
      for (let i = 0; i < 60 && frame.data.done !== true; i++)
        frame = checked(await client.send({ type: 'step', data: await nextAction(oracle, mine) }), 'stage4');
      const observation = frame.data.observation!;
      const components = observation['reward_components'] as Record<string, number | boolean | string>;
      expect(observation['reward_name']).toBe('hierarchy:l1');
      expect(components).toMatchObject({
        role: 'l1',
        accuracy: 1,
        resolution: 1,
        efficiency: 1,
        integrity: 1,
        density: 'sparse',
        guard_severity: 1,
      });
      expect(frame.data.reward).toBeCloseTo(0.3 * (components['empathy'] as number) + 0.7, 12);
      expect(Object.keys((observation['hierarchy'] as { roles: object }).roles)).toEqual(['l1', 'l2', 'l3', 'team']);
    }
    client.close();
  }, 60_000);

  it('pays an L1 that escalates at once less than the oracle (premature escalation, and nothing earned at stage 4)', async () => {
    const { url } = await serve('stage2');
    const client = await connect(url);
    const task = domain.tasks.find((t) => t.id === 'billing_020')!;
    checked(await client.send({ type: 'reset', data: { task: task.id } }), 'stage2');
    const escalated = checked(
      await client.send({
        type: 'step',
        data: {
          type: 'tool_call',
          name: 'handoff',
          arguments: { target: 'queue_billing', reason: 'customer_request', summary: 'over to you' },
          content: 'A colleague will take over.',
        },
      }),
      'stage2',
    );
    let frame = escalated;
    for (let i = 0; i < 5 && frame.data.done !== true; i++)
      frame = checked(await client.send({ type: 'step', data: { type: 'end' } }), 'stage2');
    expect(frame.data.done).toBe(true);
    const components = frame.data.observation!['reward_components'] as Record<string, unknown>;
    expect(components['premature_escalation']).toBe(true);
    // Stage 2's guard severity 0.5: premature escalation costs × 0.75.
    expect(components['hierarchy_guard']).toBeCloseTo(0.75, 12);
    expect(components['density']).toBe('dense');

    checked(await client.send({ type: 'reset', data: { task: task.id } }), 'stage2');
    const oracle = createOraclePolicy(domain, task);
    const mine: ChatMessage[] = [];
    let honest = frame;
    for (let i = 0; i < 60; i++) {
      honest = checked(await client.send({ type: 'step', data: await nextAction(oracle, mine) }), 'stage2');
      if (honest.data.done === true) break;
    }
    expect(frame.data.reward as number).toBeLessThan(honest.data.reward as number);
    client.close();
  }, 60_000);

  it('serves only the stage’s priorities', async () => {
    const stage1 = await serve('stage1');
    const stage4 = await serve('stage4');
    expect(stage1.session.plan.length).toBeGreaterThan(0);
    expect(stage1.session.plan.length).toBeLessThan(stage4.session.plan.length);
    const client = await connect(stage1.url);
    const legal = domain.tasks.find((t) => t.handoff.queue === 'queue_legal' && t.split === 'train')!;
    const refused = await client.send({ type: 'reset', data: { task: legal.id } });
    expect(refused).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    client.close();
  });

  it('at a stage with drift, serves drift tasks: the notice arrives on the drift turn, the old rule fails, the notice followed passes', async () => {
    const { url, session } = await serve('stage3');
    const planned = session.plan.find((p) => p.key.endsWith('@email_changes_suspended'))!;
    const key = planned.key;
    const gold = planned.task.actions ?? [];
    const arg = (name: string, k: string) => gold.find((a) => a.name === name)!.arguments[k];
    const call = (name: string, args: Record<string, unknown>) => ({ type: 'tool_call', name, arguments: args });
    /** Verifies the customer over two turns; returns the observations seen. */
    async function verify(client: Awaited<ReturnType<typeof connect>>) {
      const seen: Frame[] = [checked(await client.send({ type: 'reset', data: { task: key } }), 'stage3')];
      seen.push(
        checked(
          await client.send({ type: 'step', data: call('find_customer_by_email', { email: arg('find_customer_by_email', 'email') }) }),
          'stage3',
        ),
      );
      const customer = arg('send_verification_code', 'customer_id');
      seen.push(checked(await client.send({ type: 'step', data: call('send_verification_code', { customer_id: customer }) }), 'stage3'));
      seen.push(
        checked(
          await client.send({
            type: 'step',
            data: { type: 'message', content: "I've sent a verification code by text message. Please read me the code." },
          }),
          'stage3',
        ),
      );
      seen.push(
        checked(
          await client.send({
            type: 'step',
            data: call('verify_customer', { customer_id: customer, code: arg('verify_customer', 'code') }),
          }),
          'stage3',
        ),
      );
      return { seen, customer };
    }
    const client = await connect(url);
    // Keeps the old rule: changes the e-mail address (refused), and says it is done.
    const old = await verify(client);
    const notices = old.seen.filter((f) => f.data.observation?.['policy_notice'] !== undefined);
    expect(notices).toHaveLength(1);
    // The notice comes with the customer's second message (the drift's turn), not before.
    expect(old.seen.indexOf(notices[0]!)).toBe(3);
    expect(String(notices[0]!.data.observation!['policy_notice'])).toContain('E-mail address changes are suspended');
    const refused = checked(
      await client.send({
        type: 'step',
        data: call('update_email', { customer_id: old.customer, new_email: 'new.address@mailbox.example' }),
      }),
      'stage3',
    );
    expect((refused.data.observation!['tool_result'] as { content: string }).content).toContain(
      // The supervisor reviews the change before the domain sees it, and names what the new policy asks for.
      'Not approved by your supervisor: the policy asks for handoff (target queue_account_security, reason no_capability) instead.',
    );
    let end = checked(
      await client.send({ type: 'step', data: { type: 'end', content: 'Your e-mail address has been updated.' } }),
      'stage3',
    );
    expect(end.data.done).toBe(true);
    expect(end.data.observation!['success']).toBe(false);
    // Follows the notice: hands off to account security.
    const follows = await verify(client);
    expect(follows.seen.filter((f) => f.data.observation?.['policy_notice'] !== undefined)).toHaveLength(1);
    end = checked(
      await client.send({
        type: 'step',
        data: {
          ...call('handoff', {
            target: 'queue_account_security',
            reason: 'no_capability',
            summary: 'E-mail change; changes are suspended.',
          }),
          content: 'Our account security team will take over.',
        },
      }),
      'stage3',
    );
    for (let i = 0; i < 3 && end.data.done !== true; i++)
      end = checked(await client.send({ type: 'step', data: { type: 'end' } }), 'stage3');
    expect(end.data.observation!['success']).toBe(true);
    client.close();
  }, 60_000);

  describe('the hierarchy exploits, each against its honest counterpart under its role’s reward', () => {
    const tool = (name: string, args: Record<string, unknown>) => ({ type: 'tool_call', name, arguments: args });
    const say = (content: string) => ({ type: 'message', content });
    /** Plays `steps` on `taskId` against a server of `supervisor`; returns the last frame. */
    async function script(supervisor: SupervisorName, taskId: string, steps: (feedback: () => string) => unknown[]) {
      const { url } = await serve('stage2', supervisor);
      const client = await connect(url);
      let frame = checked(await client.send({ type: 'reset', data: { task: taskId } }), 'stage2', supervisor);
      let feedback = '';
      for (const step of steps(() => feedback)) {
        if (frame.data.done === true) break;
        frame = checked(await client.send({ type: 'step', data: step }), 'stage2', supervisor);
        const result = frame.data.observation?.['tool_result'] as { content: string } | undefined;
        if (result?.content.includes('Not approved by your supervisor')) feedback = result.content;
      }
      for (let i = 0; i < 3 && frame.data.done !== true; i++)
        frame = checked(await client.send({ type: 'step', data: { type: 'end' } }), 'stage2', supervisor);
      expect(frame.data.done).toBe(true);
      client.close();
      return frame.data as { reward: number; observation: Record<string, unknown> };
    }
    const c = 'cus_1020';
    /** billing_020 (Starter wanted) with a first change to Plus; then what `fix` says. */
    const planChange = (fix: unknown[]) => [
      tool('find_customer_by_email', { email: 'aisha.murphy.1020@example.com' }),
      tool('send_verification_code', { customer_id: c }),
      say("I've sent a verification code by text message. Please read me the code."),
      tool('verify_customer', { customer_id: c, code: '898302' }),
      tool('get_subscription', { customer_id: c }),
      tool('list_plans', {}),
      tool('change_plan', { customer_id: c, plan_id: 'plus' }),
      ...fix,
    ];
    const follows = planChange([
      tool('change_plan', { customer_id: c, plan_id: 'starter' }),
      say('Done: you are on Starter, 29.00 a month.'),
    ]);
    const ignores = planChange([tool('change_plan', { customer_id: c, plan_id: 'plus' }), say('Done: your plan is changed.')]);
    const roles = (d: { observation: Record<string, unknown> }) => (d.observation['hierarchy'] as { roles: Record<string, number> }).roles;

    it('L1 ignoring the feedback scores below L1 taking it up', async () => {
      const honest = await script('honest', 'billing_020', () => follows);
      const ignored = await script('honest', 'billing_020', () => ignores);
      expect(honest.observation['success']).toBe(true);
      expect((honest.observation['reward_components'] as Record<string, unknown>)['ignored_feedback']).toBe(0);
      expect((ignored.observation['reward_components'] as Record<string, unknown>)['ignored_feedback']).toBeGreaterThan(0);
      expect(ignored.reward).toBeLessThan(honest.reward);
    });

    it('L2 rubber-stamping the wrong change scores below L2 rejecting it', async () => {
      const honest = await script('honest', 'billing_020', () => follows);
      const stamped = await script('rubber-stamp', 'billing_020', () => planChange([say('Done: you are on Plus.')]));
      expect(stamped.observation['success']).toBe(false);
      expect(roles(stamped)['l2']).toBeLessThan(roles(honest)['l2']!);
    });

    it('L2 sending a low-priority hand-off to the manager scores below L2 keeping it', async () => {
      // billing_006 explains a charge (low priority); L1 hands it off after three actions.
      const handoff = () => [
        tool('find_customer_by_email', { email: 'gita.rossi.1070@example.com' }),
        tool('send_verification_code', { customer_id: 'cus_1070' }),
        say("I've sent a verification code by text message. Please read me the code."),
        {
          ...tool('handoff', { target: 'queue_billing', reason: 'customer_request', summary: 'Explain a charge.' }),
          content: 'A colleague will take over.',
        },
      ];
      const kept = await script('honest', 'billing_006', handoff);
      const escalated = await script('escalate-all', 'billing_006', handoff);
      expect((escalated.observation['reward_components'] as Record<string, unknown>)['unnecessary_manager']).toBe(true);
      expect(roles(escalated)['l2']).toBeLessThan(roles(kept)['l2']!);
      expect(roles(escalated)['team']).toBeLessThan(roles(kept)['team']!);
    });
  });

  it('serves tau2-bench drift tasks: on airline, the old rule fails the drift task over the socket and the notice followed passes', async () => {
    const airline = await tau2Domain('airline');
    const session = envSessionOptions(airline, {
      tasks: 'main',
      split: 'train',
      reward: 'r2',
      checks: 'off',
      hierarchy: { role: 'l1', supervisor: 'honest', stage: 'stage3' },
    });
    const app = buildEnvServer({ name: 'baton-airline-team', description: 'test', session, maxSessions: 1, idleTimeoutMs: 60_000 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    servers.push(() => app.close());
    const planned = session.plan.find((p) => p.key.endsWith('@cancellation_rule_tightened'))!;
    const before = airline.tasks.find((t) => `${t.id}@cancellation_rule_tightened` === planned.task.id)!;
    const client = await connect(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`);
    /** Says a line first (the drift is at the customer's second message), then plays `task`'s solution. */
    async function playAs(task: DomainTask) {
      checked(await client.send({ type: 'reset', data: { task: planned.key } }), 'stage3');
      const second = checked(
        await client.send({ type: 'step', data: { type: 'message', content: 'Let me look into that for you.' } }),
        'stage3',
      );
      expect(String(second.data.observation!['policy_notice'])).toContain('The cancellation rule is tightened');
      const oracle = createOraclePolicy(airline, task);
      const mine: ChatMessage[] = [];
      const results: string[] = [];
      let frame = second;
      for (let i = 0; i < 60 && frame.data.done !== true; i++) {
        frame = checked(await client.send({ type: 'step', data: await nextAction(oracle, mine) }), 'stage3');
        const result = frame.data.observation?.['tool_result'] as { content: string } | undefined;
        if (result) results.push(result.content);
      }
      for (let i = 0; i < 3 && frame.data.done !== true; i++)
        frame = checked(await client.send({ type: 'step', data: { type: 'end' } }), 'stage3');
      expect(frame.data.done).toBe(true);
      return { observation: frame.data.observation!, results };
    }
    const old = await playAs(before);
    // The supervisor reviews the cancellation against the new rule, and names the transfer instead.
    expect(
      old.results.some((r) => r.includes('Not approved by your supervisor: the policy asks for transfer_to_human_agents instead.')),
    ).toBe(true);
    expect(old.observation['success']).toBe(false);
    const follows = await playAs(planned.task);
    expect(follows.observation['success']).toBe(true);
    expect(follows.observation['handed_off']).toBe(true);
    client.close();
  }, 60_000);

  it('refuses an unknown stage before listening', async () => {
    const base = {
      domain: 'billing' as const,
      tasks: 'main' as const,
      split: 'train' as const,
      reward: 'r2',
      user: 'scripted' as const,
      styles: 'neutral',
      checks: 'off' as const,
      host: '127.0.0.1',
      port: 0,
      maxSessions: 1,
      idleTimeoutS: 1,
      maxFrameKib: 64,
      mode: 'hierarchy' as const,
    };
    await expect(runEnvServe({ ...base, role: 'l1', curriculum: 'stage9' })).rejects.toThrow(
      '--curriculum: unknown curriculum stage "stage9"',
    );
  });
});
