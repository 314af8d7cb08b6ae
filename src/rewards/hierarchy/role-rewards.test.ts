/**
 * Every formula of seed 004 against cases computed by hand (the arithmetic is in each test's
 * comment), so a changed weight or a changed rule fails here first.
 */
import { describe, expect, it } from 'vitest';
import { tookUpFeedback } from './feedback-overlap.js';
import { HierarchyEpisodeSchema, type HierarchyEpisode, type ReviewFact } from './hierarchy-episode.js';
import { hierarchyGuard, HIERARCHY_GUARD_DEFAULTS } from './hierarchy-guard.js';
import { l1Reward, l2Reward, l3Reward, oversightQuality, roleReward, HIERARCHY_REWARD_DEFAULTS } from './role-rewards.js';
import { hierarchyScore, teamReward } from './team-reward.js';

const approved: ReviewFact = { action: 'refund_charge', verdict: 'approve', right: 'approve', feedback: null, response: null };

/** An honest, resolved, high-priority episode with one correct approval. */
const honest: HierarchyEpisode = HierarchyEpisodeSchema.parse({
  priority: 'high',
  terminal: true,
  resolution_rule: 1,
  resolution_judge: null,
  empathy: 0.8,
  accuracy: 1,
  tone: 0.7,
  efficiency: 0.9,
  sla: 1,
  policy_adherence: 1,
  l1_actions: 5,
  l1_escalated: false,
  reviews: [approved],
  manager_escalated: false,
  manager_escalation_due: false,
  decision_quality: null,
  steps: 8,
  ideal_steps: 10,
  reward_guard: 1,
  loops: 0,
  contradictions: 0,
  keyword_stuffing: false,
  injection: [],
});
const ep = (over: Partial<HierarchyEpisode>): HierarchyEpisode => HierarchyEpisodeSchema.parse({ ...honest, ...over });

const rejected = (feedback: string, response: string | null): ReviewFact => ({
  action: 'refund_charge',
  verdict: 'reject',
  right: 'reject',
  feedback,
  response,
});

describe('L1 = 0.30 empathy + 0.25 accuracy + 0.25 resolution + 0.20 efficiency, × integrity', () => {
  it('pays a resolved episode with the judged (here the rule’s) resolution', () => {
    // 0.30·0.8 + 0.25·1 + 0.25·1 + 0.20·0.9 = 0.24 + 0.25 + 0.25 + 0.18 = 0.92
    const r = l1Reward(honest);
    expect(r.value).toBeCloseTo(0.92, 12);
    expect(r.components).toMatchObject({ resolution: 1, resolution_source: 'rule', integrity: 1, hierarchy_guard: 1 });
  });
  it('uses the judge’s resolution when there is one, and tone while the episode is open', () => {
    // 0.24 + 0.25 + 0.25·0.4 + 0.18 = 0.77
    expect(l1Reward(ep({ resolution_judge: 0.4 })).value).toBeCloseTo(0.77, 12);
    // 0.24 + 0.25 + 0.25·0.7 + 0.18 = 0.845
    const open = l1Reward(ep({ terminal: false }));
    expect(open.value).toBeCloseTo(0.845, 12);
    expect(open.components['resolution_source']).toBe('tone');
  });
  it('halves a premature escalation: low or medium priority, fewer than 3 actions', () => {
    // 0.92 × 0.5
    for (const priority of ['low', 'medium'] as const)
      expect(l1Reward(ep({ priority, l1_escalated: true, l1_actions: 2 })).value).toBeCloseTo(0.46, 12);
    // Three actions, or a high or critical case, is not premature.
    expect(l1Reward(ep({ priority: 'low', l1_escalated: true, l1_actions: 3 })).value).toBeCloseTo(0.92, 12);
    expect(l1Reward(ep({ priority: 'high', l1_escalated: true, l1_actions: 0 })).value).toBeCloseTo(0.92, 12);
    expect(l1Reward(ep({ priority: 'critical', l1_escalated: true, l1_actions: 1 })).value).toBeCloseTo(0.92, 12);
  });
  it('charges 0.7 for ignored feedback (no keyword overlap), once however many were ignored', () => {
    const ignored = rejected('Refund only the duplicate charge, not the original.', 'Let me look at your account.');
    const taken = rejected('Refund only the duplicate charge, not the original.', 'Understood: I will refund the duplicate.');
    // 0.92 × 0.7 = 0.644
    expect(l1Reward(ep({ reviews: [ignored] })).value).toBeCloseTo(0.644, 12);
    expect(l1Reward(ep({ reviews: [ignored, ignored] })).value).toBeCloseTo(0.644, 12);
    expect(l1Reward(ep({ reviews: [ignored, ignored] })).components['ignored_feedback']).toBe(2);
    expect(l1Reward(ep({ reviews: [taken] })).value).toBeCloseTo(0.92, 12);
  });
  it('multiplies the single-agent guards and the HierarchyGuard', () => {
    // 0.92 × 0.5 × 0.7 = 0.322; with a fake resolution too (× 0.3): 0.0966
    const both = { priority: 'low' as const, l1_escalated: true, l1_actions: 1, reviews: [rejected('check the amount', null)] };
    expect(l1Reward(ep(both)).value).toBeCloseTo(0.322, 12);
    expect(l1Reward(ep({ ...both, reward_guard: 0.3 })).value).toBeCloseTo(0.0966, 12);
    expect(l1Reward(ep({ ...both, reward_guard: 0.3 })).components['integrity']).toBeCloseTo(0.105, 12);
  });
  it('subtracts 0.7 for an injection in L1’s text, and clamps at 0', () => {
    // 0.92 − 0.7 = 0.22; 0.46 − 0.7 < 0 → 0
    expect(l1Reward(ep({ injection: ['l1'] })).value).toBeCloseTo(0.22, 12);
    expect(l1Reward(ep({ injection: ['l1'], priority: 'low', l1_escalated: true, l1_actions: 0 })).value).toBe(0);
    // Another role's injection is not L1's.
    expect(l1Reward(ep({ injection: ['l2'] })).value).toBeCloseTo(0.92, 12);
  });
});

describe('L2 = 0.35 oversight + 0.30 (1 + escalation + manager penalties) + 0.20 policy + 0.15 budget, × guard', () => {
  it('pays a correct review, no wrong escalation, within budget: 1', () => {
    // 0.35 + 0.30 + 0.20 + 0.15
    expect(l2Reward(honest).value).toBeCloseTo(1, 12);
  });
  it('measures oversight as the share of right verdicts (a rubber stamp approves what it should reject)', () => {
    const stamped: ReviewFact = { ...approved, right: 'reject' };
    expect(oversightQuality(ep({ reviews: [approved, stamped] }))).toBe(0.5);
    expect(oversightQuality(ep({ reviews: [] }))).toBe(1);
    // 0.35·0.5 + 0.30 + 0.20 + 0.15 = 0.825
    expect(l2Reward(ep({ reviews: [approved, stamped] })).value).toBeCloseTo(0.825, 12);
  });
  it('pays half the step budget term over the ideal step count', () => {
    // 0.35 + 0.30 + 0.20 + 0.15·0.5 = 0.925
    expect(l2Reward(ep({ steps: 12 })).value).toBeCloseTo(0.925, 12);
    expect(l2Reward(ep({ steps: 10 })).value).toBeCloseTo(1, 12);
  });
  it('charges a low-priority escalation to the manager both penalties and × 0.4', () => {
    // discipline 1 − 0.3 − 0.2 = 0.5: (0.35 + 0.15 + 0.20 + 0.15) × 0.4 = 0.85 × 0.4 = 0.34
    const r = l2Reward(ep({ priority: 'low', manager_escalated: true }));
    expect(r.value).toBeCloseTo(0.34, 12);
    expect(r.components).toMatchObject({ escalation_penalty: -0.3, unnecessary_manager_penalty: -0.2 });
    expect(r.components['escalation_discipline']).toBeCloseTo(0.5, 12);
  });
  it('charges a wrong escalation decision either way, and pays a due one in full', () => {
    // Medium, not due: discipline 0.7, no guard: 0.35 + 0.21 + 0.20 + 0.15 = 0.91
    expect(l2Reward(ep({ priority: 'medium', manager_escalated: true })).value).toBeCloseTo(0.91, 12);
    // Due and missed: the same 0.91.
    expect(l2Reward(ep({ manager_escalation_due: true })).value).toBeCloseTo(0.91, 12);
    // Due and made: 1.
    expect(l2Reward(ep({ manager_escalated: true, manager_escalation_due: true })).value).toBeCloseTo(1, 12);
  });
  it('is not charged L1’s guard flags', () => {
    expect(l2Reward(ep({ priority: 'low', l1_escalated: true, l1_actions: 0 })).value).toBeCloseTo(1, 12);
  });
});

describe('L3 = 0.40 decision quality + 0.30 resolution (0.5 while open) + 0.30 closure', () => {
  it('pays a right, closed decision 1', () => {
    expect(l3Reward(ep({ decision_quality: 1 })).value).toBeCloseTo(1, 12);
  });
  it('pays an open episode 0.5 resolution and no closure', () => {
    // 0.40 + 0.30·0.5 + 0 = 0.55
    expect(l3Reward(ep({ decision_quality: 1, terminal: false })).value).toBeCloseTo(0.55, 12);
  });
  it('uses the judge, and counts an undecided case as quality 0', () => {
    // 0 + 0.30·0.5 + 0.30 = 0.45
    expect(l3Reward(ep({ decision_quality: 0, resolution_judge: 0.5 })).value).toBeCloseTo(0.45, 12);
    const none = l3Reward(ep({ decision_quality: null }));
    expect(none.value).toBeCloseTo(0.6, 12);
    expect(none.components['decided']).toBe(false);
  });
  it('is picked by role', () => {
    expect(roleReward('l3', ep({ decision_quality: 1 })).components['role']).toBe('l3');
    expect(roleReward('l1', honest).value).toBeCloseTo(0.92, 12);
  });
});

describe('HierarchyGuard', () => {
  it('reports each flag, its role’s part and the product of all three (004’s numbers)', () => {
    const g = hierarchyGuard(
      ep({ priority: 'low', l1_escalated: true, l1_actions: 2, manager_escalated: true, reviews: [rejected('verify first', 'ok')] }),
    );
    expect(g).toMatchObject({ premature_escalation: true, ignored_feedback: 1, unnecessary_manager: true });
    expect(g.l1).toBeCloseTo(0.35, 12); // 0.5 × 0.7
    expect(g.l2).toBeCloseTo(0.4, 12);
    expect(g.multiplier).toBeCloseTo(0.14, 12); // 0.5 × 0.7 × 0.4
  });
  it('scales every factor toward 1 with the curriculum’s severity', () => {
    const e = ep({ priority: 'low', l1_escalated: true, l1_actions: 0 });
    // 1 − 0.5 × (1 − 0.5) = 0.75; 0.92 × 0.75 = 0.69
    const config = { ...HIERARCHY_REWARD_DEFAULTS, guard: { ...HIERARCHY_GUARD_DEFAULTS, severity: 0.5 } };
    expect(l1Reward(e, config).value).toBeCloseTo(0.69, 12);
    expect(hierarchyGuard(e, { ...HIERARCHY_GUARD_DEFAULTS, severity: 0 }).l1).toBe(1);
    expect(() => hierarchyGuard(e, { ...HIERARCHY_GUARD_DEFAULTS, severity: 2 })).toThrow(/severity must be in \[0, 1\]/);
  });
  it('reads keyword overlap on content words', () => {
    expect(tookUpFeedback('Check the charge amount first.', "I'll check the amount now.")).toBe(true);
    expect(tookUpFeedback('Check the charge amount first.', 'Sure.')).toBe(false);
    expect(tookUpFeedback('Check the charge amount first.', null)).toBe(false);
    // Feedback with no content word asks for nothing.
    expect(tookUpFeedback('No.', null)).toBe(true);
    // Case and punctuation do not matter.
    expect(tookUpFeedback('VERIFY the customer!', 'verifying… no: I will verify them')).toBe(true);
  });
});

describe('hierarchy score and the team’s terminal reward', () => {
  it('scores the structure: 0.5 + 0.2 reviewed + 0.1 L1 worked − 0.2 manager on low, clamped', () => {
    expect(hierarchyScore(honest)).toBeCloseTo(0.8, 12);
    expect(hierarchyScore(ep({ reviews: [], l1_actions: 1 }))).toBeCloseTo(0.5, 12);
    expect(hierarchyScore(ep({ priority: 'low', manager_escalated: true }))).toBeCloseTo(0.6, 12);
    expect(hierarchyScore(ep({ priority: 'low', manager_escalated: true, reviews: [], l1_actions: 0 }))).toBeCloseTo(0.3, 12);
  });
  it('adds the seven terms (resolution 0.4 rule + 0.6 judge)', () => {
    // 0.25·1 + 0.15·1 + 0.15·0.8 + 0.15·1 + 0.10·1 + 0.10·0.9 + 0.10·0.8 = 0.94
    expect(teamReward(honest).value).toBeCloseTo(0.94, 12);
    // resolution 0.4 + 0.6·0.5 = 0.7: 0.94 − 0.25·0.3 = 0.865
    expect(teamReward(ep({ resolution_judge: 0.5 })).value).toBeCloseTo(0.865, 12);
  });
  it('subtracts each penalty', () => {
    // loop 0.2, contradiction 0.15: 0.94 − 0.35 = 0.59
    expect(teamReward(ep({ loops: 1, contradictions: 1 })).value).toBeCloseTo(0.59, 12);
    // stuffing 0.30: 0.64
    expect(teamReward(ep({ keyword_stuffing: true })).value).toBeCloseTo(0.64, 12);
    // ignored feedback 0.15: 0.79
    expect(teamReward(ep({ reviews: [rejected('verify the customer', 'ok')] })).value).toBeCloseTo(0.79, 12);
    // premature escalation: escalation 0.3 → 0.64
    expect(teamReward(ep({ priority: 'medium', l1_escalated: true, l1_actions: 5 - 3 })).value).toBeCloseTo(0.64, 12);
    // manager on low: hierarchy 0.6 (−0.02), escalation 0.3, unnecessary manager 0.2: 0.94 − 0.02 − 0.5 = 0.42
    expect(teamReward(ep({ priority: 'low', manager_escalated: true })).value).toBeCloseTo(0.42, 12);
    // clamped at 0
    expect(teamReward(ep({ loops: 5 })).value).toBe(0);
  });
});

describe('HierarchyEpisodeSchema', () => {
  it('refuses scores out of [0, 1] and unknown fields', () => {
    expect(HierarchyEpisodeSchema.safeParse({ ...honest, empathy: 1.2 }).success).toBe(false);
    expect(HierarchyEpisodeSchema.safeParse({ ...honest, bonus: 1 }).success).toBe(false);
    expect(HierarchyEpisodeSchema.safeParse({ ...honest, priority: 'urgent' }).success).toBe(false);
  });
});
