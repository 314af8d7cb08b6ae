import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { DomainName } from '../domains/domain.js';
import { productionTaskFromConversation } from '../lab/production/from-conversation.js';
import { TaskSetError } from '../lab/production/task-set.js';
import type { Store } from '../store/store.js';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { HttpError } from './http-errors.js';
import { ConversationParamsSchema, parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';

/** Body of `POST /v1/conversations/:id/lab-task` (optional): the split, `test` only when named. */
export const LabTaskBodySchema = z.strictObject({ split: z.enum(['train', 'dev', 'test']).exactOptional() });

/** Where the server's made lab tasks go (its production task set, if configured) and which domain it serves. */
export interface LabTaskRoutesOptions {
  store: Store;
  auth: CallerDeps;
  /** The domain the server's agents work (the log must agree). */
  domain?: DomainName;
  /** The production task set to add each task to; null: the task is only returned. */
  taskSet: string | null;
}

const STATUS = { no_verdict: 409, unknown_domain: 422, secret_found: 422, not_replayable: 422, no_customer_turns: 422 } as const;

/**
 * `POST /v1/conversations/:id/lab-task` (supervisors and admins): the reviewed conversation as a
 * labelled hand-off task (src/lab/production/), added to the server's production task set when
 * one is configured (`productionTasks.dir` in baton.config.json). The same task
 * `baton tasks from-conversation` makes. A conversation that cannot be one gets a 4xx saying why,
 * and nothing is written.
 */
export function registerLabTaskRoutes(app: FastifyInstance, options: LabTaskRoutesOptions): void {
  const { store, auth } = options;
  app.post(
    '/v1/conversations/:id/lab-task',
    routeDocs('Make a lab task of a reviewed conversation (added to the production task set when one is configured)', 'supervisor', {
      params: ConversationParamsSchema,
      body: LabTaskBodySchema,
    }),
    async (request) => {
      await requireStaff(request, auth, 'supervisor');
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const body = parseInput(LabTaskBodySchema, request.body ?? {}, 'body');
      let result;
      try {
        result = await productionTaskFromConversation(store, id, {
          taskSet: options.taskSet,
          ...(options.domain ? { domain: options.domain } : {}),
          ...(body.split ? { split: body.split } : {}),
        });
      } catch (error) {
        // The set as it stands refuses the task (a split it would change, a file changed by hand): nothing written.
        if (error instanceof TaskSetError) throw new HttpError(409, 'task_set_conflict', error.message);
        throw error;
      }
      if (!result.ok) {
        if (result.code === 'not_found') throw new HttpError(404, 'not_found', `there is no conversation ${id}`);
        throw new HttpError(STATUS[result.code], result.code, result.message);
      }
      const added = result.added;
      return {
        task: result.task,
        added: added ? { change: added.change, revision: added.manifest.revision, checksum: added.manifest.checksum.value } : null,
      };
    },
  );
}
