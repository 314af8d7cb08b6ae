/**
 * The pieces an environment server is built from, for the common case: one domain's tasks (main
 * tasks or hand-off variants, one split, some styles), the scripted customer, and a named reward.
 * `baton env serve` adds the LLM customer; the benchmark and the tests use this as it is.
 */
import type { Policy } from '../../core/index.js';
import type { ChatMessage } from '../../core/index.js';
import type { Domain } from '../../domains/domain.js';
import { rewardByName, type RewardName } from '../../rewards/index.js';
import { createUserFactory, planEpisodes } from '../eval/run-eval.js';
import type { Style } from '../user.js';
import type { VariantSplit } from '../variant.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../variants/index.js';
import type { EnvAction, EnvSessionOptions } from './session.js';

export function scriptedEnvSession(
  domain: Domain,
  options: { tasks: 'main' | 'handoff'; split: VariantSplit; reward: RewardName; checks: 'production' | 'off'; styles?: readonly Style[] },
): EnvSessionOptions {
  const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
  const plan = planEpisodes(domain, variants, {
    tasks: options.tasks,
    split: options.split,
    styles: options.styles ?? ['neutral'],
    trials: 1,
    seed: 1,
  });
  return {
    domain,
    plan,
    reward: rewardByName(options.reward),
    userFor: createUserFactory({ user: 'scripted', concurrency: 1 }, domain, variants, ''),
    user: 'scripted',
    checks: options.checks,
  };
}

/**
 * The next action of a policy that is not behind the harness (the oracle, replayed by a client):
 * asks it with the assistant messages it has sent so far, records its answer among them, and turns
 * the answer into one environment action.
 */
export async function nextAction(policy: Policy, sent: ChatMessage[]): Promise<EnvAction> {
  const answer = await policy.next({ messages: sent, tools: [] });
  if (!answer.ok) throw new Error(`${policy.name} failed: ${answer.failure.message}`);
  sent.push({ role: 'assistant', content: answer.content, toolCalls: answer.toolCalls });
  const call = answer.toolCalls[0];
  if (!call) return { type: 'message', content: answer.content ?? '' };
  return {
    type: 'tool_call',
    name: call.name,
    arguments: JSON.parse(call.arguments) as Record<string, unknown>,
    ...(answer.content ? { content: answer.content } : {}),
  };
}
