import { describe, expect, it } from 'vitest';
import { input } from '../../test/support/reward-input.js';
import { loadDomain } from '../domains/load-domain.js';
import { rewardByName } from '../rewards/index.js';
import { rewardOptionsFrom } from './reward-options.js';

describe('rewardOptionsFrom', () => {
  it('sets r2 and dense weights from --reward-config, and the judge from the environment', async () => {
    const domain = await loadDomain('billing');
    const options = rewardOptionsFrom('{"r2": {"false_transfer": 2}, "dense": {"guards": {"floor": 0.2}}}', domain, {});
    expect(options.r2).toEqual({ false_transfer: 2 });
    expect(options.judge).toBeUndefined();
    const r2 = rewardByName('r2', options);
    expect(await r2.score(input({ transferred: true, should_transfer: false }))).toMatchObject({ value: -1 });
    const judged = rewardOptionsFrom(undefined, domain, { BATON_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1', BATON_JUDGE_MODEL: 'grader' });
    expect(judged.judge?.model).toBe('grader');
  });

  it('refuses what it cannot use, saying why', async () => {
    const domain = await loadDomain('billing');
    expect(() => rewardOptionsFrom('{r2', domain, {})).toThrow(/not JSON/);
    expect(() => rewardOptionsFrom('{"r3": {}}', domain, {})).toThrow(/--reward-config/);
    expect(() => rewardOptionsFrom('{"r2": {"false_transfer": -1}}', domain, {})).toThrow(/--reward-config/);
    expect(() => rewardOptionsFrom('{"dense": {"max_steps": 0}}', domain, {})).toThrow(/max_steps must be positive/);
  });
});
