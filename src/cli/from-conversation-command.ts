/**
 * `baton tasks from-conversation CONV_ID`: a reviewed production conversation → a labelled
 * hand-off task in the production task set (src/lab/production/, docs/production-tasks.md).
 * Reads the store `baton serve` wrote (a SQLite file, or a postgres:// URL); never creates one.
 * Prints the task as JSON on stdout and what was done on stderr; a refusal writes nothing and
 * exits 1.
 */
import { existsSync } from 'node:fs';
import { InvalidArgumentError } from 'commander';
import type { DomainName } from '../domains/domain.js';
import { DEFAULT_TASK_SET } from '../lab/production/defaults.js';
import { productionTaskFromConversation } from '../lab/production/from-conversation.js';
import { TaskSetError } from '../lab/production/task-set.js';
import { openStore, type StoreConfig } from '../store/open-store.js';

/** `baton serve`'s default SQLite file. */
export const DEFAULT_SQLITE_FILE = '.baton/baton.sqlite';

export interface FromConversationCommandOptions {
  /** A SQLite file, or a postgres:// URL (default: BATON_PG_URL when set, else `.baton/baton.sqlite`). */
  store?: string;
  taskSet?: string;
  domain?: DomainName;
  split?: 'train' | 'dev' | 'test';
  /** Build and print the task, add it to no set. */
  dryRun?: boolean;
}

/** `--store`: a postgres:// URL, or the path of an existing SQLite file (never created here). */
export function storeOfArgument(value: string | undefined, env: NodeJS.ProcessEnv = process.env): StoreConfig {
  const given = value ?? env['BATON_PG_URL'] ?? DEFAULT_SQLITE_FILE;
  if (/^postgres(ql)?:\/\//.test(given)) return { kind: 'postgres', url: given };
  if (!existsSync(given)) {
    throw new InvalidArgumentError(
      `--store: there is no SQLite file at ${given} (name the file baton serve writes, e.g. ${DEFAULT_SQLITE_FILE}, or a postgres:// URL).`,
    );
  }
  return { kind: 'sqlite', path: given };
}

/** Runs the command; returns the exit code. */
export async function runFromConversation(id: string, options: FromConversationCommandOptions): Promise<number> {
  const config = storeOfArgument(options.store);
  const store = await openStore(config);
  try {
    const taskSet = options.dryRun ? null : (options.taskSet ?? DEFAULT_TASK_SET);
    const result = await productionTaskFromConversation(store, id, {
      taskSet,
      ...(options.domain ? { domain: options.domain } : {}),
      ...(options.split ? { split: options.split } : {}),
    });
    if (!result.ok) {
      process.stderr.write(`baton: ${result.message}\n`);
      return 1;
    }
    process.stdout.write(`${JSON.stringify(result.task, null, 2)}\n`);
    const { task, added } = result;
    const label = task.should_transfer ? `hand off${task.expected_target ? ` to ${task.expected_target}` : ''}` : 'no hand-off';
    process.stderr.write(
      added
        ? `baton: ${added.change} ${task.id} (${task.kind}, ${label}, ${task.split}) in ${taskSet}: revision ${added.manifest.revision}, checksum ${added.manifest.checksum.value.slice(0, 12)}\n`
        : `baton: ${task.id} (${task.kind}, ${label}, ${task.split}); --dry-run: added to no task set\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof TaskSetError) {
      process.stderr.write(`baton: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}
