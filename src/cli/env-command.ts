/**
 * `baton env serve`: the OpenEnv-compatible environment server over a domain's tasks (see
 * `src/server/env-server.ts` and docs/rl.md). It serves until SIGINT or SIGTERM.
 */
import { InvalidArgumentError } from 'commander';
import type { DomainName } from '../domains/domain.js';
import { loadDomain } from '../domains/load-domain.js';
import { createUserFactory, planEpisodes } from '../lab/eval/run-eval.js';
import { loadUserGuidelines } from '../lab/users/llm-user.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../lab/variants/index.js';
import type { VariantSplit } from '../lab/variant.js';
import { isRewardName, REWARD_NAMES, rewardByName } from '../rewards/index.js';
import { buildEnvServer } from '../server/env-server.js';
import { endpoint, parseStyles } from './eval-command.js';
import { rewardOptionsFrom } from './reward-options.js';

export interface EnvServeOptions {
  domain: DomainName;
  tasks: 'handoff' | 'main';
  split: VariantSplit;
  reward: string;
  user: 'scripted' | 'llm';
  styles: string;
  checks: 'production' | 'off';
  host: string;
  port: number;
  maxSessions: number;
  idleTimeoutS: number;
  rewardConfig?: string;
  tau2Dir?: string;
}

export async function runEnvServe(opts: EnvServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!isRewardName(opts.reward))
    throw new InvalidArgumentError(`--reward: unknown reward ${opts.reward}; the rewards are ${REWARD_NAMES.join(', ')}`);
  const userModel = endpoint('BATON_USER', env) ?? endpoint('BATON_LLM', env);
  if (opts.user === 'llm' && !userModel) {
    throw new InvalidArgumentError(
      '--user llm needs a model endpoint: set BATON_USER_BASE_URL and BATON_USER_MODEL (or BATON_LLM_BASE_URL and BATON_LLM_MODEL).',
    );
  }
  const styles = parseStyles(opts.styles);
  const domain = await loadDomain(opts.domain, opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {});
  const variants = generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
  const plan = planEpisodes(domain, variants, { tasks: opts.tasks, split: opts.split, styles, trials: 1, seed: 1 });
  if (plan.length === 0) throw new InvalidArgumentError(`${opts.domain} has no ${opts.tasks} tasks in the ${opts.split} split`);
  const guidelines = opts.user === 'llm' ? await loadUserGuidelines(opts.tau2Dir) : '';
  const userFor = createUserFactory(
    { user: opts.user, ...(userModel ? { userModel } : {}), concurrency: opts.maxSessions },
    domain,
    variants,
    guidelines,
  );
  const app = buildEnvServer({
    name: `baton-${domain.name}`,
    description: `Baton's ${domain.name} domain (${opts.tasks} tasks, ${opts.split} split): a support agent with tools, a simulated customer, reward ${opts.reward}.`,
    session: {
      domain,
      plan,
      reward: rewardByName(opts.reward, rewardOptionsFrom(opts.rewardConfig, domain, env)),
      userFor,
      user: opts.user,
      checks: opts.checks,
    },
    maxSessions: opts.maxSessions,
    idleTimeoutMs: opts.idleTimeoutS * 1000,
  });
  const address = await app.listen({ host: opts.host, port: opts.port });
  process.stderr.write(
    `baton env: ${plan.length} episodes of ${domain.name}; OpenEnv on ${address} (WebSocket ${address.replace(/^http/, 'ws')}/ws)\n`,
  );
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
