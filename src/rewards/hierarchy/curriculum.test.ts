import { describe, expect, it } from 'vitest';
import { atDensity, CURRICULUM, parseStage, promotion, servesPriority, StageConfigSchema, STAGES } from './curriculum.js';

describe('curriculum', () => {
  it('goes from dense and forgiving to sparse and harsh, and widens the tasks', () => {
    const severities = STAGES.map((s) => CURRICULUM[s].guard_severity);
    expect(severities).toEqual([...severities].sort((a, b) => a - b));
    expect(CURRICULUM.stage1.density).toBe('dense');
    expect(CURRICULUM.stage4).toMatchObject({ density: 'sparse', guard_severity: 1, drift: true });
    expect(servesPriority(CURRICULUM.stage1, 'critical')).toBe(false);
    expect(servesPriority(CURRICULUM.stage4, 'critical')).toBe(true);
    for (const s of STAGES) expect(StageConfigSchema.parse(CURRICULUM[s])).toEqual(CURRICULUM[s]);
  });
  it('pays a sparse stage nothing without the rule’s success', () => {
    expect(atDensity(CURRICULUM.stage4, 0.7, false)).toBe(0);
    expect(atDensity(CURRICULUM.stage4, 0.7, true)).toBe(0.7);
    expect(atDensity(CURRICULUM.stage1, 0.7, false)).toBe(0.7);
  });
  it('promotes after the threshold is met in each of the last N evaluations', () => {
    expect(promotion('stage1', [0.9, 0.85])).toMatchObject({ promote: false, reason: '2 of 3 evaluations so far' });
    expect(promotion('stage1', [0.9, 0.79, 0.95])).toMatchObject({ promote: false });
    expect(promotion('stage1', [0.1, 0.9, 0.8, 0.95])).toEqual({
      promote: true,
      next: 'stage2',
      reason: 'dev success ≥ 0.8 in each of the last 3 evaluations',
    });
    expect(promotion('stage4', [1, 1, 1])).toMatchObject({ promote: false, next: null });
    expect(promotion('stage2', [0.5], { threshold: 0.5, evaluations: 1 })).toMatchObject({ promote: true, next: 'stage3' });
  });
  it('names the stages when given another', () => {
    expect(parseStage('stage3')).toBe('stage3');
    expect(() => parseStage('stage5')).toThrow('unknown curriculum stage "stage5": use stage1, stage2, stage3, stage4');
  });
});
