/**
 * Why an episode failed, in words: the evaluator's verdict (`record.evaluation`) read component by
 * component of the task's reward basis, the way a researcher would say it ("never told the
 * customer …", "handed off, and the task should be finished without a hand-off"). Components
 * outside the basis are diagnostics and are not reasons. Each reason has a code, so a report can
 * filter and sort episodes by it.
 */
import type { GoldAction } from '../../domains/domain.js';
import { isScoredTermination } from '../../domains/evaluator.js';
import { infrastructureFailure } from '../metrics/index.js';
import type { EpisodeRecord } from '../records.js';

/** What kind of reason: one per reward component, and the ways an episode is not an agent result at all. */
export const FAILURE_CODES = {
  handoff: 'hand-off wrong',
  db: 'database differs',
  communicate: 'not communicated',
  action: 'reference action missing',
  nl: 'judge: assertion not met',
  other: 'reward below 1',
  termination: 'ended unscored',
  unscored: 'unscored',
  infrastructure: 'infrastructure failure',
} as const;
export type FailureCode = keyof typeof FAILURE_CODES;

export interface FailureReason {
  code: FailureCode;
  /** The reason in a sentence. */
  text: string;
}

const TERMINATION_WORDS: Record<string, string> = {
  max_steps: 'it reached the step limit',
  too_many_errors: 'too many tool errors',
  agent_error: 'the agent failed',
  user_error: 'the simulated customer failed',
  timeout: 'it timed out',
};

const quoted = (items: readonly string[]) => items.map((s) => `“${s}”`).join(', ');

function callText(action: GoldAction): string {
  const args = Object.entries(action.arguments)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return `${action.name}(${args})`;
}

/**
 * The reasons an episode is not a success, in the order of its reward basis; empty for a success.
 * `gold` gives the task's reference actions by id, to name the ones not taken.
 */
export function failureReasons(
  record: Pick<EpisodeRecord, 'evaluation' | 'termination' | 'handoff' | 'infrastructure_failure'>,
  gold: readonly GoldAction[] | null = null,
): FailureReason[] {
  const inf = infrastructureFailure(record);
  if (inf) return [{ code: 'infrastructure', text: `infrastructure failure (${inf}): not an agent result, left out of the figures` }];
  const e = record.evaluation;
  if (e.status === 'unscored') return [{ code: 'unscored', text: `unscored: ${e.unscoredWhy ?? 'no reason recorded'}` }];
  if (e.success === true) return [];
  if (!isScoredTermination(e.termination, e.taskVersion)) {
    const how = TERMINATION_WORDS[e.termination] ?? e.termination;
    return [{ code: 'termination', text: `the episode ended because ${how} (${e.termination}); such an ending scores 0` }];
  }
  const reasons: FailureReason[] = [];
  for (const component of e.rewardBasis) {
    if (component === 'HANDOFF' && e.handoffCheck && e.handoffCheck.reward === 0) {
      reasons.push({ code: 'handoff', text: e.handoffCheck.why });
    } else if (component === 'DB' && e.db && e.db.reward === 0) {
      const mismatched = e.db.replayMismatches.map((m) => m.name);
      reasons.push({
        code: 'db',
        text:
          'the database ended differently from the reference solution' +
          (mismatched.length > 0 ? ` (writes that replayed differently: ${[...new Set(mismatched)].join(', ')})` : ''),
      });
    } else if (component === 'COMMUNICATE' && e.communicate && e.communicate.reward === 0) {
      reasons.push({ code: 'communicate', text: `never told the customer ${quoted(e.communicate.missing)}` });
    } else if (component === 'ACTION' && e.action && e.action.reward === 0) {
      const byId = new Map((gold ?? []).map((a) => [a.actionId, a]));
      const names = e.action.missing.map((id) => {
        const action = byId.get(id);
        return action ? callText(action) : id;
      });
      reasons.push({ code: 'action', text: `reference actions not taken: ${names.join('; ')}` });
    } else if (component === 'NL_ASSERTION' && e.nl?.status === 'scored' && e.nl.reward === 0) {
      const verdict = e.nl.verdict;
      const unmet = verdict.ok ? verdict.results.filter((r) => !r.metExpectation) : [];
      reasons.push({
        code: 'nl',
        text:
          unmet.length > 0
            ? `the judge found not met: ${unmet.map((r) => `“${r.expectedOutcome}” (${r.reasoning})`).join('; ')}`
            : 'the judge found an assertion not met',
      });
    }
  }
  if (reasons.length === 0) {
    // The product was below 1 without a component at 0 (a partial component, or a record from another evaluator).
    reasons.push({ code: 'other', text: `reward ${String(e.reward)}: below 1 with no component of the basis at 0` });
  }
  return reasons;
}
