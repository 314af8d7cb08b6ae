/**
 * How rewards are configured from the command line and the environment, for `baton audit` and
 * `baton env serve`: `--reward-config '{"r2": {"false_transfer": 1}, "dense": {"guards": {"floor": 0.2}}}'`
 * sets any weight, and `BATON_JUDGE_BASE_URL` with `BATON_JUDGE_MODEL` (and `BATON_JUDGE_API_KEY`)
 * gives `dense` its rubric judge.
 */
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import type { Domain } from '../domains/domain.js';
import { createRubricJudge, denseConfig, type RewardOptions } from '../rewards/index.js';

const Weights = z.record(z.string(), z.union([z.number(), z.record(z.string(), z.number())]));
const RewardConfigSchema = z.strictObject({
  r2: z
    .strictObject({
      violation: z.number().nonnegative().optional(),
      false_transfer: z.number().nonnegative().optional(),
      missed_transfer: z.number().nonnegative().optional(),
      format_error: z.number().nonnegative().optional(),
    })
    .optional(),
  dense: Weights.optional(),
});

export function rewardOptionsFrom(configJson: string | undefined, domain: Domain, env: NodeJS.ProcessEnv = process.env): RewardOptions {
  let options: RewardOptions = {};
  if (configJson !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(configJson);
    } catch {
      throw new InvalidArgumentError('--reward-config: not JSON (e.g. {"r2": {"false_transfer": 1}})');
    }
    const checked = RewardConfigSchema.safeParse(parsed);
    if (!checked.success) throw new InvalidArgumentError(`--reward-config: ${z.prettifyError(checked.error)}`);
    const { r2, dense } = checked.data;
    if (dense) {
      try {
        denseConfig(dense as Parameters<typeof denseConfig>[0]);
      } catch (error) {
        throw new InvalidArgumentError(`--reward-config: ${(error as Error).message}`);
      }
    }
    options = {
      ...(r2 ? { r2: Object.fromEntries(Object.entries(r2).filter(([, v]) => v !== undefined)) } : {}),
      ...(dense ? { dense: dense as NonNullable<RewardOptions['dense']> } : {}),
    };
  }
  const baseURL = env['BATON_JUDGE_BASE_URL'];
  const model = env['BATON_JUDGE_MODEL'];
  if (baseURL && model) {
    const apiKey = env['BATON_JUDGE_API_KEY'];
    options.judge = createRubricJudge({ baseURL, model, policy: domain.policy, ...(apiKey ? { apiKey } : {}) });
  }
  return options;
}
