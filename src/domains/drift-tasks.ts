/**
 * The drift pairs of any domain: billing's (paired by its task file's kinds) and tau2-bench
 * airline's and retail's (paired by replaying each reference solution under each event).
 */
import { readFileSync } from 'node:fs';
import { BILLING_TASKS_FILE, billingDriftTasks, parseBillingTasks } from './billing/index.js';
import type { Domain } from './domain.js';
import type { DriftTask } from './drift.js';
import { tau2DriftTasks } from './tau2/tau2-drift.js';

// A loaded domain never changes: its pairs are built once per turn (airline's replays take a while).
const built = new WeakMap<Domain, Map<number, DriftTask[]>>();

/** Every drift pair of the domain, each event at customer turn `turn` (billing's complaints at 1). */
export function driftTasksOf(domain: Domain, turn = 2): DriftTask[] {
  let byTurn = built.get(domain);
  if (!byTurn) built.set(domain, (byTurn = new Map()));
  let pairs = byTurn.get(turn);
  if (!pairs) {
    pairs =
      domain.name === 'billing'
        ? (billingDriftTasks(parseBillingTasks(readFileSync(BILLING_TASKS_FILE, 'utf8')), domain.tasks, turn) as DriftTask[])
        : tau2DriftTasks(domain, turn);
    byTurn.set(turn, pairs);
  }
  return pairs;
}
