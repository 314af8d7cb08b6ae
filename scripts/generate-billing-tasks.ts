/**
 * Writes `data/billing/tasks.json`: billing's tasks, built from the database of `BILLING_SEED`
 * (see `src/domains/billing/billing-task-builder.ts`) and formatted as Prettier formats the repo,
 * so `prettier --check` passes and the file is reproduced byte for byte.
 *
 *   npx tsx scripts/generate-billing-tasks.ts           # write the file
 *   npx tsx scripts/generate-billing-tasks.ts --check   # exit 1 if the committed file differs
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildBillingTasks } from '../src/domains/billing/billing-task-builder.js';
import { BILLING_SEED, BILLING_TASKS_FILE, generateBillingDb } from '../src/domains/billing/index.js';

/** The task file's text as the generator writes it. */
export async function renderBillingTasks(): Promise<string> {
  const tasks = buildBillingTasks(generateBillingDb(BILLING_SEED));
  const path = fileURLToPath(BILLING_TASKS_FILE);
  const config = (await resolveConfig(path)) ?? {};
  return format(JSON.stringify(tasks, null, 2), { ...config, parser: 'json' });
}

async function main(argv: readonly string[]): Promise<number> {
  const path = fileURLToPath(BILLING_TASKS_FILE);
  const text = await renderBillingTasks();
  if (argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(path, 'utf8');
    } catch {
      // A missing file differs like any other.
    }
    if (committed === text) return 0;
    process.stderr.write(`${path} is not what the generator writes; run: npx tsx scripts/generate-billing-tasks.ts\n`);
    return 1;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  process.stdout.write(`wrote ${JSON.parse(text).length} tasks to ${path}\n`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
