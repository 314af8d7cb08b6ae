import { describe, expect, it } from 'vitest';
import { resolveTau2Data } from '../src/domains/tau2/tau2-data.js';
import { loadTau2Tasks } from '../src/domains/tau2/tau2-tasks.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const data = await resolveTau2Data({ dir: tau2DirForTests(), env: {} });

describe('tau2-bench tasks, both versions', () => {
  it.each([
    ['airline', 50, 30, 20],
    ['retail', 114, 74, 40],
  ] as const)('%s: %i tasks, %i train, %i test, in both versions', (domain, all, train, test) => {
    for (const version of ['current', 'release-37199f3'] as const) {
      expect(loadTau2Tasks(data, domain, { version })).toHaveLength(all);
      expect(loadTau2Tasks(data, domain, { version, split: 'train' })).toHaveLength(train);
      expect(loadTau2Tasks(data, domain, { version, split: 'test' })).toHaveLength(test);
    }
  });

  it('knows which tasks need a judge: retail current 40 (train 29, test 11); none in the release', () => {
    const retail = loadTau2Tasks(data, 'retail');
    expect(retail.filter((t) => t.needsJudge)).toHaveLength(40);
    expect(retail.filter((t) => t.needsJudge && t.split === 'train')).toHaveLength(29);
    expect(loadTau2Tasks(data, 'airline').filter((t) => t.needsJudge)).toHaveLength(0);
    const release = loadTau2Tasks(data, 'retail', { version: 'release-37199f3' });
    expect(release.filter((t) => t.needsJudge)).toHaveLength(0);
    expect(new Set(release.map((t) => t.rewardBasis.join(',')))).toEqual(new Set(['DB,COMMUNICATE']));
    expect(release[0]).toMatchObject({ version: 'release-37199f3', domain: 'retail' });
  });

  it('keeps the gold actions, with compare_args as upstream wrote them', () => {
    const airline13 = loadTau2Tasks(data, 'airline').find((t) => t.id === '13')!;
    const transfer = airline13.record.evaluation_criteria.actions!.find((a) => a.name === 'transfer_to_human_agents');
    expect(transfer?.compare_args).toEqual([]);
    expect(loadTau2Tasks(data, 'airline').find((t) => t.id === '0')!.record.evaluation_criteria.actions).toEqual([]);
  });
});
