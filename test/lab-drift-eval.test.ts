/**
 * `baton eval --drift`: the rule agent on billing's drift pairs. It reads no notice, so it keeps
 * the old rule wherever only the notice says what changed (e-mail changes suspended, a plan
 * recalled) and fails there after the drift; where the tools, rules or decider carry the change
 * (the refund limit's rule, the price list_plans shows), it follows. Before every drift it succeeds.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBillingDomain } from '../src/domains/billing/index.js';
import { createRuleAgent } from '../src/lab/agents/index.js';
import { driftTable, runDriftEval, type DriftEvalResult } from '../src/lab/eval/drift-eval.js';

describe('baton eval --drift', () => {
  it('reports success before and after each drift event with intervals over tasks', async () => {
    const domain = loadBillingDomain();
    const rule = createRuleAgent(domain);
    const result = await runDriftEval({ domain, agent: 'rule', policyFor: () => rule });
    expect(Object.keys(result.events).sort()).toEqual([
      'complaints_queue_closed',
      'email_changes_suspended',
      'plan_price_rise',
      'plan_recalled',
      'refund_limit_lowered',
    ]);
    expect(result.outcomes.every((o) => o.before)).toBe(true);
    expect(result.events['email_changes_suspended']).toMatchObject({ before: { value: 1 }, after: { value: 0 }, drop: { value: 1 } });
    expect(result.events['refund_limit_lowered']?.after.value).toBe(1);
    const overall = result.overall;
    expect(overall.after.value).toBeLessThan(1);
    expect(overall.after.ci![0]).toBeLessThanOrEqual(overall.after.value!);
    expect(overall.after.ci![1]).toBeGreaterThanOrEqual(overall.after.value!);
    expect(overall.after.ci![0]).toBeLessThan(overall.after.ci![1]);
    expect(driftTable(result)).toContain('| email_changes_suspended | 9 | 100.0% [100.0, 100.0] | 0.0% [0.0, 0.0] |');
  }, 60_000);

  it('is a flag of baton eval, writing drift.json, and refuses the LLM agent', () => {
    const bin = join(import.meta.dirname, '..', 'bin', 'baton.js');
    const out = join(mkdtempSync(join(tmpdir(), 'baton-drift-')), 'run');
    const ran = spawnSync(process.execPath, [bin, 'eval', '--domain', 'billing', '--drift', '--agent', 'rule', '--out', out, '--json'], {
      encoding: 'utf8',
    });
    expect(ran.status, ran.stderr).toBe(0);
    const printed = JSON.parse(ran.stdout) as DriftEvalResult;
    expect(JSON.parse(readFileSync(join(out, 'drift.json'), 'utf8'))).toEqual(printed);
    expect(printed.overall.pairs).toBe(printed.outcomes.length);
    const refused = spawnSync(process.execPath, [bin, 'eval', '--domain', 'billing', '--drift', '--agent', 'llm', '--out', out], {
      encoding: 'utf8',
    });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('--agent llm is not supported with it');
  }, 60_000);
});
