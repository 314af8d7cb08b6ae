/**
 * Production tasks in a lab run: a domain with the tasks' synthetic source tasks beside its own
 * (what the runner, the metrics and the report look tasks up in), and the copy of the tasks a run
 * folder keeps (`production-tasks.json`), so that its report and exports read the very tasks it
 * ran, whatever the task set holds later.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Domain } from '../../domains/domain.js';
import { productionDomainTask, ProductionTaskSchema, type ProductionTask } from './production-task.js';

/** The file of a run folder that holds the production tasks it ran. */
export const RUN_TASKS_FILE = 'production-tasks.json';

/** `domain` with the production tasks' source tasks added (ids are conversation ids: they never meet the domain's own). */
export function withProductionTasks(domain: Domain, tasks: readonly ProductionTask[]): Domain {
  const foreign = tasks.filter((t) => t.domain !== domain.name);
  if (foreign.length > 0) throw new Error(`production task ${foreign[0]!.id} is of ${foreign[0]!.domain}, not ${domain.name}`);
  return { ...domain, tasks: [...domain.tasks, ...tasks.map(productionDomainTask)] };
}

/** Writes the tasks a run runs into its folder (the same bytes for the same tasks). */
export function writeRunTasks(runDir: string, tasks: readonly ProductionTask[]): void {
  writeFileSync(join(runDir, RUN_TASKS_FILE), `${JSON.stringify(tasks, null, 2)}\n`);
}

/** The production tasks a run folder ran; null when it ran none (no file). */
export function readRunTasks(runDir: string): ProductionTask[] | null {
  const file = join(runDir, RUN_TASKS_FILE);
  if (!existsSync(file)) return null;
  const parsed = z.array(ProductionTaskSchema).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} does not hold production tasks: ${parsed.error.issues[0]?.message ?? ''}`);
  return parsed.data;
}
