/**
 * The drift tasks of tau2-bench's airline and retail, built at run time from the loaded tasks
 * (tau2-bench's data is never committed, and neither is anything derived from its text). A task is
 * paired with an event when the event changes its right outcome: replaying the task's reference
 * solution with the event fired from the start, some call is refused (or fails where it ran
 * before). The after-task keeps the solution up to that call and then transfers to a human agent,
 * the outcome the event's notice asks for; it is scored on the database and the hand-off.
 */
import { TAU2_HUMAN_QUEUE_ID } from '../decider-policies.js';
import type { Domain, DomainTask, GoldAction, RewardComponent } from '../domain.js';
import { checkDriftTurn, driftingEpisode, type DriftEvent, type DriftTask } from '../drift.js';
import { AIRLINE_DRIFT_EVENTS } from './airline/airline-drift.js';
import { RETAIL_DRIFT_EVENTS } from './retail/retail-drift.js';
import { TAU2_TRANSFER_TOOL } from './tau2-domain.js';

/** The drift events of a tau2-bench domain. */
export function tau2DriftEvents(name: 'airline' | 'retail'): readonly DriftEvent[] {
  return (name === 'airline' ? AIRLINE_DRIFT_EVENTS : RETAIL_DRIFT_EVENTS) as readonly DriftEvent[];
}

/**
 * The index of the first reference action the event changes: refused under it, or failing under it
 * where it succeeds without it (both replays run side by side). Null: the event changes nothing.
 */
export function firstChangedAction(domain: Domain, task: DomainTask, event: DriftEvent): number | null {
  const plain = domain.newEpisode();
  const drifted = driftingEpisode(domain.newEpisode());
  drifted.fire(event);
  const actions = task.actions ?? [];
  for (const [i, action] of actions.entries()) {
    const without = plain.call(action.name, { ...action.arguments });
    const under = drifted.call(action.name, { ...action.arguments });
    if (under.error && !without.error) return i;
  }
  return null;
}

/** The after-task: the reference solution up to the changed call, then the transfer. */
function transferInstead(task: DomainTask, event: DriftEvent, at: number): DomainTask {
  const kept = (task.actions ?? []).slice(0, at);
  const transfer: GoldAction = {
    actionId: `${task.id}@${event.id}_${kept.length}`,
    name: TAU2_TRANSFER_TOOL,
    arguments: { summary: 'policy drift' },
    requestor: 'assistant',
    compareArgs: [],
  };
  const rewardBasis: RewardComponent[] = [...task.rewardBasis.filter((c) => c !== 'NL_ASSERTION' && c !== 'HANDOFF'), 'HANDOFF'];
  return {
    ...task,
    id: `${task.id}@${event.id}`,
    actions: [...kept, transfer],
    rewardBasis,
    communicateInfo: [],
    nlAssertions: [],
    needsJudge: false,
    handoff: { expected: true, queue: TAU2_HUMAN_QUEUE_ID, reason: null, source: 'label' },
  };
}

/**
 * Every pair of a tau2-bench domain's tasks and its events: each task that needs no judge (so both
 * sides are scored offline) whose right outcome an event changes, the event at customer turn `turn`.
 */
export function tau2DriftTasks(domain: Domain, turn = 2): DriftTask[] {
  checkDriftTurn(turn);
  if (domain.name === 'billing') throw new Error('tau2DriftTasks: billing declares its own drift tasks (billingDriftTasks)');
  const events = tau2DriftEvents(domain.name);
  const out: DriftTask[] = [];
  for (const task of domain.tasks) {
    if (task.needsJudge || (task.actions ?? []).length === 0) continue;
    for (const event of events) {
      const at = firstChangedAction(domain, task, event);
      if (at !== null) out.push({ event, turn, before: task, after: transferInstead(task, event, at) });
    }
  }
  return out;
}
