/**
 * The training monitor's figures are the lab's: a step made of a real run's episodes (billing's
 * hand-off variants, played by the rule agent and by always-transfer) has the success,
 * over-escalation, missed hand-offs, citation rate and hand-off counts that `computeMetrics` gives
 * the same records, and the reward is the r2 reward of each episode.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../src/domains/load-domain.js';
import { monitoredEpisode, stepFigures } from '../src/lab/monitor/index.js';
import { loadRun } from '../src/lab/report/load.js';
import { rewardByName, rewardInput } from '../src/rewards/index.js';
import { makeRun } from './support/lab-runs.js';

describe("a monitor step's figures", () => {
  for (const agent of ['rule', 'always-transfer'] as const) {
    it(`equal the lab's metrics of the same episodes (${agent})`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'baton-monitor-figures-'));
      const run = await loadRun(await makeRun(root, agent));
      const domain = await loadDomain('billing');
      const reward = rewardByName('r2');
      const scores = await Promise.all(run.records.map((r) => reward.score(rewardInput(r, domain))));
      const step = stepFigures(
        1,
        run.records.map((r, i) => monitoredEpisode(r, domain, scores[i] as (typeof scores)[number])),
      );
      const m = run.metrics.metrics;
      expect(step.episodes).toBe(run.records.length);
      expect([step.tp, step.fp, step.fn, step.tn]).toEqual([m.handoff.tp, m.handoff.fp, m.handoff.fn, m.handoff.tn]);
      expect(step.success.rate).toBe(m.success.value);
      expect(step.over_escalation.rate).toBe(m.handoff.over_escalation.value);
      expect(step.missed.rate).toBe(m.handoff.missed.value);
      expect(step.citation_rate.rate).toBe(m.citation_rate.value);
      expect(step.citation_rate.den).toBe(m.citation_rate.refusals + m.citation_rate.handoffs);
      expect(step.handoff_rate.num).toBe(run.metrics.counts.handoffs);
      expect(step.reward).toBeCloseTo(scores.reduce((s, r) => s + r.value, 0) / scores.length, 12);
      expect(Object.keys(step.components)).toEqual(expect.arrayContaining(['task_withheld', 'violations']));
      // The two agents differ where they should: always-transfer over-escalates every negative.
      if (agent === 'always-transfer') expect(step.over_escalation.rate).toBe(1);
      else expect(step.over_escalation.rate).toBeLessThan(1);
    }, 180_000);
  }
});
