import { describe, expect, it } from 'vitest';
import type { ChatMessage, PolicyResponse, QueueId, ToolSpec } from '../src/core/index.js';
import { loadBillingDomain } from '../src/domains/billing/index.js';
import { STALL_LINE, UNKNOWN_TOOL } from '../src/lab/agents/exploits.js';
import { offeredToolNames, SEARCH_LINES, searchPolicies } from '../src/lab/agents/search-policies.js';
import { agentDomainTools } from '../src/lab/run-episode.js';
import { handoffToolSpecs } from '../src/runtime/handoff-tool.js';
import { toolSpec } from '../src/runtime/tool.js';

const billing = loadBillingDomain();

async function offered(): Promise<ToolSpec[]> {
  const domain = await billing;
  return [
    ...agentDomainTools(domain).map((t) => toolSpec(t)),
    ...handoffToolSpecs({ queues: domain.queues.map((q) => q.id as QueueId), agents: [] }, false),
  ];
}

const conversation: ChatMessage[] = [
  { role: 'system', content: 'policy' },
  { role: 'user', content: 'I was charged twice: ch_100446, my e-mail is ana@example.com.' },
];

const calls = (r: PolicyResponse) =>
  r.ok ? r.toolCalls.map((c) => ({ name: c.name, args: JSON.parse(c.arguments) as Record<string, unknown> })) : [];

describe('the audit search policies', () => {
  it('are the degenerate ones (each stock line, each offered tool, an unknown tool, a failure) and the random ones asked for', async () => {
    const domain = await billing;
    const policies = searchPolicies(domain, { random: 3, seed: 1 });
    const names = policies.map((p) => p.name);
    expect(names).toEqual([
      ...Object.keys(SEARCH_LINES).map((l) => `say:${l}`),
      ...offeredToolNames(domain).map((t) => `call:${t}`),
      'unknown-tool',
      'fail',
      'random-1',
      'random-2',
      'random-3',
    ]);
    expect(offeredToolNames(domain)).toContain('handoff');
    expect(policies.filter((p) => p.family === 'random')).toHaveLength(3);
  });

  it('take steps of their kind, with arguments from the tool schema and the conversation', async () => {
    const domain = await billing;
    const tools = await offered();
    const policy = (name: string) => {
      const found = searchPolicies(domain, { random: 2, seed: 1 }).find((p) => p.name === name);
      if (!found) throw new Error(name);
      return found.policy;
    };
    expect(await policy('say:stall').next({ messages: conversation, tools })).toMatchObject({
      ok: true,
      content: STALL_LINE,
      toolCalls: [],
    });
    expect(calls(await policy('unknown-tool').next({ messages: conversation, tools }))).toEqual([{ name: UNKNOWN_TOOL, args: {} }]);
    expect(await policy('fail').next({ messages: conversation, tools })).toMatchObject({ ok: false, failure: { kind: 'server_error' } });
    const handoff = calls(await policy('call:handoff').next({ messages: conversation, tools }));
    expect(handoff).toHaveLength(1);
    expect(domain.queues.map((q) => q.id)).toContain(handoff[0]?.args['target']);
    expect(typeof handoff[0]?.args['reason']).toBe('string');
    // Strings come from what the conversation showed (ids, e-mails): a refund of a charge it named.
    const refund = calls(await policy('call:refund_charge').next({ messages: conversation, tools }))[0];
    expect(refund?.name).toBe('refund_charge');
    for (const value of Object.values(refund?.args ?? {}))
      if (typeof value === 'string') expect(['ch_100446', 'ana@example.com', 'x']).toContain(value);
  });

  it('answer the same conversation the same way, and the random ones differ from each other', async () => {
    const domain = await billing;
    const tools = await offered();
    const [a, b] = searchPolicies(domain, { random: 2, seed: 7 }).filter((p) => p.family === 'random');
    if (!a || !b) throw new Error('two random policies');
    const steps = async (p: typeof a) => {
      const out: string[] = [];
      for (let turn = 0; turn < 12; turn++) {
        const messages: ChatMessage[] = [...conversation, { role: 'user', content: `turn ${turn}` }];
        out.push(JSON.stringify(await p.policy.next({ messages, tools })));
      }
      return out;
    };
    expect(await steps(a)).toEqual(await steps(a));
    expect(await steps(a)).not.toEqual(await steps(b));
  });
});
