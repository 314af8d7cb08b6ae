import type { FastifyInstance } from 'fastify';
import type { StaffId } from '../core/index.js';
import { pendingApproval } from '../runtime/service/agent-turn.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { HttpError } from './http-errors.js';
import { ConversationParamsSchema, parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';
import { ApprovalBodySchema } from './staff-schemas.js';
import type { ApprovalItem } from './staff-stream-protocol.js';

/**
 * Supervisor review of high-risk actions (`approvals.tools` in baton.config.json): the agent's
 * turn stops at the call and waits; a supervisor sees what it wants to do and approves (it runs,
 * the turn goes on) or rejects with feedback (the agent reads it as the call's result). Nothing
 * reaches the customer from that turn before the decision.
 */
export function registerApprovalRoutes(app: FastifyInstance, options: { service: ConversationService; auth: CallerDeps }): void {
  const { service, auth } = options;
  const store = service.gateway.store;

  app.get('/v1/approvals', routeDocs("Agents' actions waiting for a supervisor's approval", 'supervisor'), async (request) => {
    await requireStaff(request, auth, 'supervisor');
    const active = await store.listConversations({ states: ['AGENT_ACTIVE'], limit: 1000 });
    const waiting: ApprovalItem[] = [];
    for (const c of active) {
      const events = await store.listEvents(c.id, { types: ['approval.requested', 'approval.decided', 'message.received'] });
      const call = pendingApproval(events);
      if (call === null) continue;
      const asked = events.findLast((e) => e.type === 'approval.requested');
      const said = events.findLast((e) => e.type === 'message.received' && (asked === undefined || e.seq < asked.seq));
      waiting.push({
        conversationId: c.id,
        agent: c.owner.type === 'agent' ? c.owner.id : null,
        call: { id: call.id, name: call.name, arguments: call.arguments },
        why: asked?.type === 'approval.requested' ? asked.data.why : null,
        requestedAt: asked?.at ?? null,
        customerSaid: said?.type === 'message.received' ? said.data.message.text : null,
      });
    }
    // Oldest first: the call that has waited longest is the first to decide.
    waiting.sort((a, b) => (a.requestedAt ?? '').localeCompare(b.requestedAt ?? ''));
    return { approvals: waiting };
  });

  app.post(
    '/v1/conversations/:id/approval',
    routeDocs('Approve or reject (with feedback) the action the agent waits on', 'supervisor', {
      params: ConversationParamsSchema,
      body: ApprovalBodySchema,
    }),
    async (request) => {
      const { staff } = await requireStaff(request, auth, 'supervisor');
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const body = parseInput(ApprovalBodySchema, request.body, 'body');
      if (body.approved && body.feedback !== undefined) throw new HttpError(400, 'invalid_request', 'body.feedback goes with a rejection');
      const outcome = await service.resume(id, {
        approved: body.approved,
        by: staff.id as StaffId,
        ...(body.feedback ? { feedback: body.feedback } : {}),
      });
      if (outcome.type === 'not_found') throw new HttpError(404, 'not_found', `there is no conversation ${id}`);
      if (outcome.type === 'no_pending_approval')
        throw new HttpError(409, 'no_pending_approval', 'no action of this conversation waits for approval');
      if (outcome.type === 'not_agent')
        throw new HttpError(409, 'not_agent', `the agent no longer owns the conversation (${outcome.state})`);
      if (outcome.type === 'approval_details_lost')
        throw new HttpError(
          409,
          'approval_details_lost',
          'this action held a secret (a card, a code, a password), which is never stored, and the server that asked for approval no longer has it (it restarted, or this is another server): reject it with feedback, and the agent will ask the customer again',
        );
      return { outcome: outcome.type, ...(outcome.type === 'reply' ? { delivered: outcome.delivered } : {}) };
    },
  );
}
