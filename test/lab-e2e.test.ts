import { describe, expect, it } from 'vitest';
import type { Domain } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { referenceAgent, type AgentName } from '../src/lab/agents/index.js';
import { episodeAgent } from '../src/lab/run-episode.js';
import { runSet, summarise, type SetItem } from '../src/lab/run-set.js';
import { taskScript } from '../src/lab/task-scripts.js';
import { STYLES, type Style } from '../src/lab/user.js';
import { createScriptedUser } from '../src/lab/users/scripted-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../src/lab/variants/index.js';
import type { HandoffVariant } from '../src/lab/variant.js';
import { tau2Domain } from './support/tau2-domains.js';

// End to end with the scripted customer: every episode goes through the gateway and the harness.

async function run(
  domain: Domain,
  agent: AgentName,
  items: readonly SetItem[],
  variants: readonly HandoffVariant[],
  style: Style = 'neutral',
) {
  return runSet({
    domain,
    items,
    seed: 1,
    agent: (item) => episodeAgent(agent, referenceAgent(agent, domain, { task: item.task })),
    user: (item, seed) => createScriptedUser(item.variant?.script ?? taskScript(domain, item.task, variants), { style, seed }),
  });
}

const itemsOf = (domain: Domain, variants: readonly HandoffVariant[]): SetItem[] =>
  variants
    .filter((v) => v.domain === domain.name && v.split === 'dev')
    .map((variant) => {
      const task = domain.tasks.find((t) => t.id === variant.source);
      if (!task) throw new Error(`no source task ${variant.source}`);
      return { task, variant };
    });

describe('the billing task set, end to end', async () => {
  const billing = await loadDomain('billing');
  const variants = generateVariants([billing], { seed: HANDOFF_VARIANT_SEED });
  const tasks: SetItem[] = billing.tasks.map((task) => ({ task, variant: null }));

  it('the oracle scores 1.0 on every task, through the gateway and the harness, with the scripted customer', async () => {
    const { summary } = await run(billing, 'oracle', tasks, variants);
    expect(summary).toMatchObject({ episodes: billing.tasks.length, successes: billing.tasks.length });
    expect(summary.handoff.missed + summary.handoff.over_escalation + summary.handoff.wrong_target).toBe(0);
  });

  it('the rule agent completes it in all six styles, its success and hand-off decisions reported', async () => {
    const all = [];
    for (const style of STYLES) {
      const { results, summary } = await run(billing, 'rule', tasks, variants, style);
      expect(results.every((r) => r.termination === 'user_stop')).toBe(true);
      console.log(
        `rule / billing / ${style}: ${summary.successes}/${summary.episodes} succeeded; hand-offs ${JSON.stringify(summary.handoff)}`,
      );
      all.push(...results);
    }
    const summary = summarise('billing', 'rule', all);
    expect(summary.episodes).toBe(billing.tasks.length * STYLES.length);
    // A floor, not a target: the rule agent is the baseline every other agent is compared with.
    expect(summary.successRate).toBeGreaterThanOrEqual(0.85);
    expect(summary.handoff.true_positive / summary.handoff.positives).toBeGreaterThanOrEqual(0.9);
  }, 300_000);
});

describe.each(['billing', 'airline', 'retail'] as const)('always-transfer and never-transfer on %s (dev variants)', (name) => {
  it('always-transfer hands off every episode; never-transfer none', async () => {
    const domain = name === 'billing' ? await loadDomain('billing') : await tau2Domain(name);
    const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
    const items = itemsOf(domain, variants);
    expect(items.length).toBeGreaterThan(10);
    const always = await run(domain, 'always-transfer', items, variants);
    const never = await run(domain, 'never-transfer', items, variants);
    console.log(
      `${name}: always-transfer ${JSON.stringify(always.summary.handoff)}; never-transfer ${JSON.stringify(never.summary.handoff)}`,
    );
    expect(always.results.every((r) => r.evaluation.handoff.transferred)).toBe(true);
    expect(always.summary.handoff.over_escalation).toBe(always.summary.handoff.negatives);
    expect(never.results.some((r) => r.evaluation.handoff.transferred)).toBe(false);
    expect(never.summary.handoff.missed + never.summary.handoff.true_negative).toBe(items.length);
  }, 300_000);
});

describe('the llm agent: the harness with an OpenAI-compatible model (the scripted server over HTTP)', () => {
  it('runs a billing episode end to end: tool calls go to the domain, the reply to the customer', async () => {
    const { startScriptedOpenAiServer } = await import('../src/testing/scripted-openai-server.js');
    const { createOpenAiPolicy } = await import('../src/llm/openai-policy.js');
    const billing = await loadDomain('billing');
    const task = billing.tasks.find((t) => !t.handoff.expected && t.actions?.[0]?.name === 'find_customer_by_email');
    const email = task?.actions?.[0]?.arguments['email'];
    if (!task || typeof email !== 'string') throw new Error('a billing task that starts with a look-up by e-mail');
    const server = await startScriptedOpenAiServer({
      script: [
        { type: 'reply', content: 'Happy to help. What is the e-mail address on your account?' },
        { type: 'reply', toolCalls: [{ name: 'find_customer_by_email', arguments: { email } }] },
        { type: 'reply', content: 'Thank you, I found your account. I will send you a code next.' },
      ],
    });
    try {
      const policy = createOpenAiPolicy({ baseURL: server.url, model: 'scripted', maxRetries: 0 });
      const variants = generateVariants([billing], { seed: HANDOFF_VARIANT_SEED });
      const { results } = await runSet({
        domain: billing,
        items: [{ task, variant: null }],
        seed: 3,
        agent: () => episodeAgent('llm', policy),
        user: (item, seed) => createScriptedUser(taskScript(billing, item.task, variants), { style: 'neutral', seed }),
      });
      const [result] = results;
      const tool = result?.trajectory.messages.find((m) => m.role === 'tool');
      expect(tool).toMatchObject({ role: 'tool', error: false, executed: true });
      expect(result?.trajectory.messages.some((m) => m.role === 'assistant' && m.content?.includes('I found your account'))).toBe(true);
      // The model saw the domain's policy and tools, and the tool's output came back to it.
      const bodies = server.requests.map(
        (r) => r.body as { messages: { role: string; content: string | null }[]; tools?: { function: { name: string } }[] },
      );
      expect(bodies[0]?.messages[0]?.content).toContain('Kestrel Home');
      expect(bodies[0]?.tools?.map((t) => t.function.name)).toContain('refund_charge');
      expect(bodies[2]?.messages.some((m) => m.role === 'tool')).toBe(true);
      expect(result?.agent).toBe('llm');
    } finally {
      await server.close();
    }
  });
});
