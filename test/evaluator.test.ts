import { afterEach, describe, expect, it } from 'vitest';
import type { Domain, DomainTask } from '../src/domains/domain.js';
import { evaluate, isScoredTermination } from '../src/domains/evaluator.js';
import { createOpenAiJudge } from '../src/domains/judge.js';
import { runOracle } from '../src/domains/oracle.js';
import { OPENING_MESSAGE, type Trajectory, type TrajectoryMessage } from '../src/domains/trajectory.js';
import { startScriptedOpenAiServer, type ScriptedOpenAiServer } from '../src/testing/scripted-openai-server.js';
import { tau2Domain } from './support/tau2-domains.js';

const taskOf = (domain: Domain, id: string): DomainTask => {
  const task = domain.tasks.find((t) => t.id === id);
  if (!task) throw new Error(`no task ${id}`);
  return task;
};

/** A run in which the agent transfers at once, writing nothing. */
function transferOnly(summary = 'The customer needs help.'): Trajectory {
  return {
    messages: [
      { role: 'assistant', content: OPENING_MESSAGE, toolCalls: [] },
      { role: 'user', content: 'I need help with my booking.', toolCalls: [] },
      {
        role: 'assistant',
        content: null,
        toolCalls: [{ id: 't1', name: 'transfer_to_human_agents', arguments: { summary }, requestor: 'assistant' }],
      },
      { role: 'tool', id: 't1', content: 'Transfer successful', error: false, requestor: 'assistant' },
      { role: 'user', content: '###TRANSFER###', toolCalls: [] },
    ],
    termination: 'user_stop',
  };
}

const ids = (list: string) => list.split(' ').sort();

describe('the transfer loophole, reproduced as TAU2.md §5 tabulates it', () => {
  it.each([
    ['airline', 'current', '0 1 2 4 5 6 9 10 13 26 27 28 31 34 36 38 41 43 45 46 47 48 49', ''],
    ['airline', 'release-37199f3', '0 1 4 5 6 10 13 26 28 31 34 36 41 43 45 46 47 48 49', ''],
    ['retail', 'current', '10 12 25 50 57 65', '24 62 67 68 105'],
    ['retail', 'release-37199f3', '10 12 25 50 57 65 105', ''],
  ] as const)(
    '%s (%s): which no-write transfers score 1.0, and which cannot be scored without a judge',
    async (name, version, full, unscored) => {
      const domain = await tau2Domain(name, version);
      const results = await Promise.all(domain.tasks.map((task) => evaluate(domain, task, transferOnly())));
      expect(
        results
          .filter((r) => r.reward === 1)
          .map((r) => r.taskId)
          .sort(),
      ).toEqual(ids(full));
      expect(
        results
          .filter((r) => r.status === 'unscored')
          .map((r) => r.taskId)
          .sort(),
      ).toEqual(unscored ? ids(unscored) : []);
      expect(results.every((r) => r.handoff.transferred && r.handoff.summary === 'The customer needs help.')).toBe(true);
      expect(results.every((r) => r.taskVersion === version)).toBe(true);
    },
  );
});

describe('evaluate', () => {
  it('scores 0 without checks when the run did not end with a user or agent stop (current), and only max_steps/too_many_errors in the release', async () => {
    expect(isScoredTermination('user_stop', 'current')).toBe(true);
    expect(isScoredTermination('agent_stop', 'current')).toBe(true);
    for (const reason of ['max_steps', 'too_many_errors', 'agent_error', 'user_error', 'timeout'] as const) {
      expect(isScoredTermination(reason, 'current')).toBe(false);
    }
    expect(isScoredTermination('agent_error', 'release-37199f3')).toBe(true);
    expect(isScoredTermination('max_steps', 'release-37199f3')).toBe(false);
    const domain = await tau2Domain('airline');
    const task = taskOf(domain, '0');
    const oracle = runOracle(domain, task);
    const cut = await evaluate(domain, task, { ...oracle, termination: 'max_steps' });
    expect(cut).toMatchObject({ reward: 0, success: false, status: 'scored' });
    expect(cut.db).toBeUndefined();
  });

  it('fails the DB check when a write is missing, and records a write whose replay differs from the log', async () => {
    const domain = await tau2Domain('airline');
    const task = domain.tasks.find((t) => (t.actions ?? []).some((a) => domain.isWrite(a.name)));
    if (!task) throw new Error('an airline task writes');
    const oracle = runOracle(domain, task);
    const withoutWrites: TrajectoryMessage[] = oracle.messages.filter(
      (m) => !(m.role === 'assistant' && m.toolCalls.some((c) => domain.isWrite(c.name))),
    );
    const partial = await evaluate(domain, task, { messages: withoutWrites, termination: 'user_stop' });
    expect(partial.db?.reward).toBe(0);
    expect(partial.reward).toBe(0);
    expect(partial.db?.predictedHash).not.toBe(partial.db?.goldHash);

    const tampered = oracle.messages.map((m) =>
      m.role === 'tool' && m.id === firstWriteId(oracle, domain) ? { ...m, content: 'something else' } : m,
    );
    const result = await evaluate(domain, task, { messages: tampered, termination: 'user_stop' });
    expect(result.db?.replayMismatches).toHaveLength(1);
    expect(result.db?.reward).toBe(1);
  });

  it('checks communicate_info case-insensitively, after removing commas from the message', async () => {
    const domain = await tau2Domain('airline');
    const task = { ...taskOf(domain, '0'), communicateInfo: ['1000', 'Refund Of $55'] };
    const say = (content: string): Trajectory => ({
      messages: [...transferOnly().messages.slice(0, 2), { role: 'assistant', content, toolCalls: [] }],
      termination: 'agent_stop',
    });
    expect((await evaluate(domain, task, say('You get 1,000 points and a refund of $55.'))).communicate).toEqual({
      reward: 1,
      missing: [],
    });
    expect((await evaluate(domain, task, say('You get 1 000 points and a refund of $55.'))).communicate).toEqual({
      reward: 0,
      missing: ['1000'],
    });
    // The expected string is not stripped of commas, so it can never match one.
    const withComma = { ...task, communicateInfo: ['1,000'] };
    expect((await evaluate(domain, withComma, say('You get 1,000 points.'))).communicate?.reward).toBe(0);
  });

  it('marks a task that needs a judge as unscored when none is configured, never as passed', async () => {
    const domain = await tau2Domain('retail');
    const task = domain.tasks.find((t) => t.needsJudge);
    if (!task) throw new Error('a retail task needs a judge');
    const result = await evaluate(domain, task, runOracle(domain, task));
    expect(result).toMatchObject({ status: 'unscored', reward: null, success: null });
    expect(result.unscoredWhy).toMatch(/no judge is configured/);
    expect(result.db?.reward).toBe(1);
  });

  it('records the hand-off facts: whether, when, to whom and why', async () => {
    const domain = await tau2Domain('airline');
    const task = taskOf(domain, '13');
    expect(task.handoff).toMatchObject({ expected: true, source: 'gold_actions' });
    const result = await evaluate(domain, task, runOracle(domain, task));
    expect(result.handoff.transferred).toBe(true);
    expect(result.handoff.tool).toBe('transfer_to_human_agents');
    expect(result.handoff.message).toBeGreaterThan(1);
    expect(result.handoff.assistantTurnsBefore).toBeGreaterThan(0);
    const none = await evaluate(domain, taskOf(domain, '0'), runOracle(domain, taskOf(domain, '0')));
    expect(none.handoff).toMatchObject({ transferred: false, message: null, label: { expected: false } });
  });

  it('reports the ACTION check as a diagnostic', async () => {
    const domain = await tau2Domain('airline');
    const task = domain.tasks.find((t) => (t.actions ?? []).some((a) => domain.isWrite(a.name)));
    if (!task) throw new Error('an airline task writes');
    const result = await evaluate(domain, task, transferOnly());
    expect(result.action?.reward).toBe(0);
    expect(result.action?.missing.length).toBeGreaterThan(0);
    const oracle = await evaluate(domain, task, runOracle(domain, task));
    expect(oracle.action).toEqual({ reward: 1, missing: [] });
  });
});

describe('Baton additions to the evaluator', () => {
  it('does not count a refused or failed transfer as a hand-off', async () => {
    const domain = await tau2Domain('airline');
    const task = taskOf(domain, '0');
    const base = transferOnly().messages;
    const failed = base.map((m) => (m.role === 'tool' ? { ...m, content: 'Error: the queue is closed', error: true } : m));
    expect((await evaluate(domain, task, { messages: failed, termination: 'user_stop' })).handoff.transferred).toBe(false);
    const refused = base.map((m) => (m.role === 'tool' ? { ...m, content: 'Refused by the harness', executed: false } : m));
    expect((await evaluate(domain, task, { messages: refused, termination: 'user_stop' })).handoff.transferred).toBe(false);
  });

  it('does not replay a write the harness refused (its tool message says executed: false)', async () => {
    const domain = await tau2Domain('airline');
    const task = domain.tasks.find((t) => (t.actions ?? []).some((a) => domain.isWrite(a.name)));
    if (!task) throw new Error('an airline task writes');
    const oracle = runOracle(domain, task);
    const writeId = firstWriteId(oracle, domain);
    const refused = oracle.messages.map((m) => (m.role === 'tool' && m.id === writeId ? { ...m, content: 'Refused', executed: false } : m));
    const result = await evaluate(domain, task, { messages: refused, termination: 'user_stop' });
    expect(result.db?.reward).toBe(0);
    // The refused call is not replayed; later writes may now differ from the log, and are listed.
    expect(result.db?.replayMismatches.map((m) => m.callId)).not.toContain(writeId);
  });

  it('matches ACTION on compare_args, or on the arguments the call itself has', async () => {
    const domain = await tau2Domain('airline');
    const call = (name: string, args: Record<string, unknown>): Trajectory => ({
      messages: [{ role: 'assistant', content: null, toolCalls: [{ id: 'c', name, arguments: args, requestor: 'assistant' }] }],
      termination: 'agent_stop',
    });
    const gold = { actionId: 'a', name: 'get_user_details', arguments: { user_id: 'u1' }, requestor: 'assistant' as const };
    const task = (compareArgs: string[] | null): DomainTask => ({ ...taskOf(domain, '0'), actions: [{ ...gold, compareArgs }] });
    expect((await evaluate(domain, task(null), call('get_user_details', { user_id: 'u1' }))).action?.reward).toBe(1);
    expect((await evaluate(domain, task(null), call('get_user_details', { user_id: 'u2' }))).action?.reward).toBe(0);
    expect((await evaluate(domain, task(null), call('get_user_details', {}))).action?.reward).toBe(1);
    expect((await evaluate(domain, task([]), call('get_user_details', { user_id: 'u2' }))).action?.reward).toBe(1);
    expect((await evaluate(domain, task(['user_id']), call('get_user_details', {}))).action?.reward).toBe(0);
    expect((await evaluate(domain, task(null), call('get_reservation_details', { user_id: 'u1' }))).action?.reward).toBe(0);
  });

  it('scores HANDOFF from the label: on time, to the labelled queue', async () => {
    const domain = await tau2Domain('airline');
    const basis = ['HANDOFF'] as const;
    const label = (expected: boolean, queue: string | null) => ({ expected, queue, reason: null, source: 'label' as const });
    const handoffTo = (target: string): Trajectory => ({
      messages: [
        {
          role: 'assistant',
          content: null,
          toolCalls: [
            { id: 'h', name: 'handoff', arguments: { target, reason: 'customer_request', summary: 's' }, requestor: 'assistant' },
          ],
        },
        { role: 'tool', id: 'h', content: 'Transfer successful', error: false, requestor: 'assistant' },
      ],
      termination: 'user_stop',
    });
    const none: Trajectory = { messages: [{ role: 'assistant', content: 'Done.', toolCalls: [] }], termination: 'agent_stop' };
    const task = (expected: boolean, queue: string | null): DomainTask => ({
      ...taskOf(domain, '0'),
      rewardBasis: basis,
      handoff: label(expected, queue),
    });
    expect((await evaluate(domain, task(true, 'queue_billing'), handoffTo('queue_billing'))).reward).toBe(1);
    expect((await evaluate(domain, task(true, 'queue_billing'), handoffTo('queue_legal'))).reward).toBe(0);
    expect((await evaluate(domain, task(true, 'queue_billing'), none)).reward).toBe(0);
    expect((await evaluate(domain, task(false, null), none)).reward).toBe(1);
    const over = await evaluate(domain, task(false, null), handoffTo('queue_billing'));
    expect(over.reward).toBe(0);
    expect(over.handoffCheck?.why).toMatch(/should be finished without a hand-off/);
  });

  it('does not count a hand-off made before anything called for it (before the due turn), unless a tool had failed for an outage', async () => {
    const domain = await tau2Domain('airline');
    const label = (reason: string) => ({ expected: true, queue: 'queue_human_agents', reason, source: 'label' as const, dueTurn: 2 });
    const task = (reason: string): DomainTask => ({ ...taskOf(domain, '0'), rewardBasis: ['HANDOFF'], handoff: label(reason) });
    const early = await evaluate(domain, task('customer_request'), transferOnly());
    expect(early.handoff.customerTurn).toBe(1);
    expect(early.reward).toBe(0);
    expect(early.handoffCheck?.why).toMatch(/before anything called for it/);
    const later: Trajectory = {
      messages: [
        ...transferOnly().messages.slice(0, 2),
        { role: 'assistant', content: 'Go on.', toolCalls: [] },
        { role: 'user', content: 'Please get me a person.', toolCalls: [] },
        ...transferOnly().messages.slice(2),
      ],
      termination: 'user_stop',
    };
    expect((await evaluate(domain, task('customer_request'), later)).reward).toBe(1);
    const failed: Trajectory = {
      messages: [
        ...transferOnly().messages.slice(0, 2),
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'g', name: 'get_user_details', arguments: { user_id: 'x' }, requestor: 'assistant' }],
        },
        { role: 'tool', id: 'g', content: 'Error: get_user_details is unavailable', error: true, requestor: 'assistant', executed: false },
        ...transferOnly().messages.slice(2),
      ],
      termination: 'user_stop',
    };
    expect((await evaluate(domain, task('tool_failures'), failed)).reward).toBe(1);
    expect((await evaluate(domain, task('customer_request'), failed)).reward).toBe(0);
  });

  it('passes ENV_ASSERTION when a task has none, and leaves the task unscored when it has some (Baton runs none)', async () => {
    const domain = await tau2Domain('airline');
    const task = { ...taskOf(domain, '0'), rewardBasis: ['ENV_ASSERTION'] as const };
    const oracle = runOracle(domain, task);
    expect((await evaluate(domain, { ...task, envAssertions: null }, oracle)).reward).toBe(1);
    const withSome = await evaluate(domain, { ...task, envAssertions: [{ func_name: 'check' }] }, oracle);
    expect(withSome).toMatchObject({ status: 'unscored', reward: null });
  });
});

function firstWriteId(trajectory: Trajectory, domain: Domain): string {
  for (const m of trajectory.messages) if (m.role === 'assistant') for (const c of m.toolCalls) if (domain.isWrite(c.name)) return c.id;
  throw new Error('no write');
}

describe('the NL-assertion judge over HTTP (scripted OpenAI-compatible server)', () => {
  const servers: ScriptedOpenAiServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  const judged = async (content: string | null) => {
    const server = await startScriptedOpenAiServer({ script: [{ type: 'reply', content }] });
    servers.push(server);
    const domain = await tau2Domain('retail');
    const task = domain.tasks.find((t) => t.needsJudge && t.nlAssertions.length === 2);
    if (!task) throw new Error('a retail task has two NL assertions');
    const result = await evaluate(domain, task, runOracle(domain, task), {
      judge: createOpenAiJudge({ baseURL: server.url, model: 'judge' }),
    });
    return { result, server, task };
  };
  const answer = (...met: boolean[]) =>
    JSON.stringify({ results: met.map((m, i) => ({ expectedOutcome: `outcome ${i}`, reasoning: 'because', metExpectation: m })) });

  it('passes when every assertion is met, sending the trajectory and the assertions at temperature 0', async () => {
    const { result, server, task } = await judged(answer(true, true));
    expect(result).toMatchObject({ status: 'scored', reward: 1, success: true, nl: { status: 'scored', reward: 1 } });
    const body = server.requests.find((r) => r.path.endsWith('/chat/completions'))?.body as {
      temperature: number;
      messages: { content: string }[];
    };
    expect(body.temperature).toBe(0);
    const prompt = body.messages.map((m) => m.content).join('\n');
    for (const assertion of task.nlAssertions) expect(prompt).toContain(assertion);
    expect(prompt).toContain(`assistant: ${OPENING_MESSAGE}`);
  });

  it('fails when one is not met', async () => {
    const { result } = await judged(answer(true, false));
    expect(result).toMatchObject({ status: 'scored', reward: 0, success: false });
  });

  it.each([
    ['a wrong number of results', answer(true)],
    ['text that is not JSON', 'yes, all good'],
    ['JSON of the wrong shape', JSON.stringify({ results: [{ met: true }, { met: true }] })],
  ])('leaves the task unscored on %s', async (_what, content) => {
    const { result } = await judged(content);
    expect(result).toMatchObject({ status: 'unscored', reward: null });
    expect(result.unscoredWhy).toMatch(/the judge/);
  });
});
