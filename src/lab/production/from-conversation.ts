/**
 * A stored conversation → its production task, and (when a task set is given) the task added to
 * it. What the CLI command and the supervisors' route both call: the log is read once from the
 * store, the task is built and checked whole (`taskFromLog`), and only then is anything written.
 */
import { ConversationIdSchema } from '../../core/index.js';
import type { DomainName } from '../../domains/domain.js';
import type { Store } from '../../store/store.js';
import type { ProductionTask } from './production-task.js';
import { taskFromLog, type TaskRefusalCode } from './task-from-log.js';
import { addToTaskSet, type AddedTask } from './task-set.js';

export interface FromConversationOptions {
  domain?: DomainName;
  split?: 'train' | 'dev' | 'test';
  /** The task set to add the task to (none: the task is only returned). */
  taskSet?: string | null;
  now?: () => Date;
}

export type FromConversationResult =
  { ok: true; task: ProductionTask; added: AddedTask | null } | { ok: false; code: TaskRefusalCode | 'not_found'; message: string };

/** The task of conversation `id` in `store`; added to `options.taskSet` when one is given. */
export async function productionTaskFromConversation(
  store: Store,
  id: string,
  options: FromConversationOptions = {},
): Promise<FromConversationResult> {
  const parsed = ConversationIdSchema.safeParse(id);
  // An id of the wrong shape names no conversation, as an unknown one does.
  if (!parsed.success) return { ok: false, code: 'not_found', message: `no conversation ${id}` };
  const conversation = await store.getConversation(parsed.data);
  if (!conversation) return { ok: false, code: 'not_found', message: `no conversation ${id}` };
  const events = await store.listEvents(parsed.data);
  const built = taskFromLog(events, {
    now: (options.now?.() ?? new Date()).toISOString(),
    ...(options.domain ? { domain: options.domain } : {}),
    ...(options.split ? { split: options.split } : {}),
  });
  if (!built.ok) return built;
  const added = options.taskSet ? addToTaskSet(options.taskSet, built.task) : null;
  return { ok: true, task: built.task, added };
}
