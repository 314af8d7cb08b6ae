import { describe, expect, it } from 'vitest';
import type { DecisionRule } from '../core/index.js';
import { BILLING_DRIFT_EVENTS, BILLING_DECIDER_POLICY, BILLING_RULES, loadBillingDomain } from './billing/index.js';
import { evaluate } from './evaluator.js';
import { runOracle } from './oracle.js';
import { driftedDeciderPolicy, driftingEpisode, driftingRules, withDriftNotices, DRIFT_NOTICE_HEADING } from './drift.js';

const domain = loadBillingDomain();
const event = (id: string) => BILLING_DRIFT_EVENTS.find((e) => e.id === id)!;

describe('policy drift', () => {
  it('refuses what the new policy forbids only once the event has fired, and applies its database change', () => {
    const episode = driftingEpisode(domain.newEpisode());
    const recall = event('plan_recalled');
    // An unverified customer: the base tool answers first, before the drift.
    expect(episode.call('change_plan', { customer_id: 'cus_1200', plan_id: 'pro' }).output).toMatch(/not verified/);
    episode.fire(recall);
    expect(episode.call('change_plan', { customer_id: 'cus_1200', plan_id: 'pro' })).toEqual({
      output: 'Error: Plan pro is withdrawn from sale; hand off to queue_billing with reason no_capability',
      error: true,
    });
    const before = episode.hash();
    episode.fire(event('plan_price_rise'));
    expect(episode.db.plans['ultra']?.price_cents).toBe(10900);
    expect(episode.hash()).not.toBe(before);
    // The domain's initial database is untouched (copy-on-write).
    expect(domain.initialDb.plans['ultra']?.price_cents).toBe(9900);
    // Firing twice changes nothing more.
    episode.fire(recall);
    expect(episode.fired.map((e) => e.id)).toEqual(['plan_recalled', 'plan_price_rise']);
  });

  it('swaps a rule for the new version from the moment its event fires', () => {
    const fired: (typeof BILLING_DRIFT_EVENTS)[number][] = [];
    const [rule] = driftingRules(BILLING_RULES, [event('refund_limit_lowered')], () => fired) as [DecisionRule];
    const findings = new Map<string, unknown[]>([['charge_id', ['ch_1']]]);
    expect(rule.evaluate({ charge_id: 'ch_1', amount: 29 }, findings)).toEqual({ decision: 'allow' });
    expect(rule.version).toBe(1);
    fired.push(event('refund_limit_lowered'));
    expect(rule.evaluate({ charge_id: 'ch_1', amount: 29 }, findings)).toMatchObject({ decision: 'deny' });
    expect(rule.evaluate({ charge_id: 'ch_1', amount: 20 }, findings)).toEqual({ decision: 'allow' });
    expect(rule.version).toBe(2);
  });

  it('moves the decider to the new policy: a closed queue’s topic goes to billing, the lowered limit', () => {
    const closed = driftedDeciderPolicy(BILLING_DECIDER_POLICY, [event('complaints_queue_closed'), event('refund_limit_lowered')]);
    expect(closed.topicTargets['complaint']).toBe('queue_billing');
    expect(closed.topicTargets['legal']).toBe('queue_legal');
    expect(closed.autonomousLimit).toBe(20);
    expect(driftedDeciderPolicy(BILLING_DECIDER_POLICY, [])).toBe(BILLING_DECIDER_POLICY);
  });

  it('puts the notices under one heading at the end of the prompt', () => {
    expect(withDriftNotices('policy', [])).toBe('policy');
    expect(withDriftNotices('policy', [event('email_changes_suspended')])).toBe(
      `policy\n\n${DRIFT_NOTICE_HEADING}\n- ${event('email_changes_suspended').notice}`,
    );
  });

  it('replays the run’s writes with the drift fired where it fired: a refund made before it stands', async () => {
    const task = domain.tasks.find((t) => t.actions?.some((a) => a.name === 'refund_charge' && Number(a.arguments['amount']) > 20))!;
    const trajectory = runOracle(domain, task);
    const drift = { events: [event('refund_limit_lowered')], fromMessage: trajectory.messages.length - 1 };
    const late = await evaluate(domain, { ...task, actions: task.actions }, trajectory, { drift });
    // The gold replays under the new policy (its refund refused), the run's refund under the old.
    expect(late.db?.replayMismatches).toEqual([]);
    expect(late.db?.reward).toBe(0);
    const early = await evaluate(domain, task, trajectory, { drift: { ...drift, fromMessage: 0 } });
    expect(early.db?.replayMismatches.map((m) => m.name)).toEqual(['refund_charge']);
    expect(await evaluate(domain, task, trajectory)).toMatchObject({ success: true });
  });
});
