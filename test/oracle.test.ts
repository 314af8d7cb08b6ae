import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../src/core/index.js';
import { evaluate } from '../src/domains/evaluator.js';
import { createOraclePolicy, oracleMessage, runOracle } from '../src/domains/oracle.js';
import { replayTask } from '../src/domains/replay.js';
import { tau2Domain } from './support/tau2-domains.js';

// The oracle replays the gold actions; through the full evaluator it must score 1.0 wherever a
// task can be scored without a judge, and leave the rest unscored.

describe.each([
  ['airline', 'current'],
  ['airline', 'release-37199f3'],
  ['retail', 'current'],
  ['retail', 'release-37199f3'],
] as const)('the oracle on %s (%s)', (name, version) => {
  it('scores 1.0 on every judge-free task and leaves the others unscored', async () => {
    const domain = await tau2Domain(name, version);
    const results = await Promise.all(domain.tasks.map((task) => evaluate(domain, task, runOracle(domain, task))));
    const judgeFree = domain.tasks.filter((t) => !t.needsJudge).map((t) => t.id);
    const needJudge = domain.tasks.filter((t) => t.needsJudge).map((t) => t.id);
    expect(results.filter((r) => r.success === true).map((r) => r.taskId)).toEqual(judgeFree);
    expect(results.filter((r) => r.status === 'unscored').map((r) => r.taskId)).toEqual(needJudge);
    // Unscored only for want of a judge: everything else about them passes.
    for (const r of results.filter((r) => r.status === 'unscored')) {
      expect(r.db?.reward).toBe(1);
      expect(r.unscoredWhy).toMatch(/no judge/);
    }
    expect(results.every((r) => r.taskVersion === version && r.source.startsWith('tau2-bench a2c0247'))).toBe(true);
    if (name === 'airline') expect(judgeFree).toHaveLength(50);
    if (name === 'retail') expect(judgeFree).toHaveLength(version === 'current' ? 74 : 114);
  });
});

describe('the oracle behind the policy port', () => {
  it('proposes the same gold actions, in order, then its message', async () => {
    const domain = await tau2Domain('retail');
    const task = domain.tasks.find((t) => (t.actions?.length ?? 0) >= 3 && t.communicateInfo.length > 0);
    if (!task) throw new Error('a retail task with three actions and information to communicate');
    const policy = createOraclePolicy(domain, task);
    const episode = domain.newEpisode();
    const messages: ChatMessage[] = [{ role: 'user', content: 'hello' }];
    const proposed: string[] = [];
    for (let turn = 0; turn < 20; turn++) {
      const response = await policy.next({ messages, tools: [] });
      if (!response.ok) throw new Error(response.failure.message);
      messages.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
      if (response.toolCalls.length === 0) {
        expect(response.content).toBe(oracleMessage(task));
        break;
      }
      for (const call of response.toolCalls) {
        proposed.push(`${call.name} ${call.arguments}`);
        const result = episode.call(call.name, JSON.parse(call.arguments) as Record<string, unknown>);
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.output });
      }
    }
    expect(proposed).toEqual((task.actions ?? []).map((a) => `${a.name} ${JSON.stringify(a.arguments)}`));
    expect(episode.hash()).toBe(replayTask(domain, task).db_final_sha256);
  });
});
