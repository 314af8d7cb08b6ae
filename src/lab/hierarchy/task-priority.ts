/**
 * What a task gains in hierarchy mode: a priority (low … critical) and an ideal step count.
 * Priority is read from the task's label, the same for every domain: a legal threat is critical;
 * a decision above the agent's authority, a bereavement or a customer who cannot be verified is
 * high; any other hand-off (a person asked for, a complaint, a request out of scope) is medium;
 * a task with a write the agent does itself is medium; a task that changes nothing is low.
 */
import type { Domain, DomainTask } from '../../domains/domain.js';
import type { Priority } from '../../rewards/hierarchy/index.js';

const HIGH_REASONS = new Set(['value_threshold', 'no_capability']);
const HIGH_QUEUES = new Set(['queue_bereavement', 'queue_account_security']);

/** The task's priority, from its label. */
export function taskPriority(domain: Domain, task: DomainTask): Priority {
  const { handoff } = task;
  if (handoff.expected) {
    if (handoff.queue === 'queue_legal') return 'critical';
    if ((handoff.reason !== null && HIGH_REASONS.has(handoff.reason)) || (handoff.queue !== null && HIGH_QUEUES.has(handoff.queue)))
      return 'high';
    return 'medium';
  }
  return (task.actions ?? []).some((a) => domain.isWrite(a.name) && a.name !== 'verify_customer') ? 'medium' : 'low';
}

/** The ideal step count: the reference solution's calls, and one reply to each customer message (at least 1). */
export function idealSteps(task: DomainTask, customerTurns: number): number {
  return Math.max(1, (task.actions?.length ?? 0) + customerTurns);
}
