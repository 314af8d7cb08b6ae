import type { FastifyInstance } from 'fastify';
import { reviewerCapacity, reviewSample, reviewsOf, reviewUnitsOf, type StaffId, type StoredEvent } from '../core/index.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { HttpError } from './http-errors.js';
import { ConversationParamsSchema, parseInput } from './http-schemas.js';
import { metricsWindow } from './metrics-window.js';
import { ReviewBodySchema, ReviewSampleQuerySchema } from './staff-schemas.js';
import { routeDocs } from './route-docs.js';

/** Everything, for a review's unit list: a conversation's whole life. */
const ALL_TIME = { since: '0000', until: '9999' };

/**
 * Staff verdicts on hand-offs (docs/reviews.md): the person who took a conversation, or a
 * supervisor, records whether the hand-off was needed, on time and given enough of a packet —
 * or whether a conversation the agent kept should have gone to a person. Supervisors draw a
 * stratified, seeded sample of what to review.
 */
export function registerReviewRoutes(app: FastifyInstance, options: { service: ConversationService; auth: CallerDeps }): void {
  const { service, auth } = options;
  const store = service.gateway.store;
  const logOr404 = async (id: Parameters<typeof store.listEvents>[0]): Promise<StoredEvent[]> => {
    if (!(await store.getConversation(id))) throw new HttpError(404, 'not_found', `there is no conversation ${id}`);
    return store.listEvents(id);
  };

  app.get(
    '/v1/conversations/:id/reviews',
    routeDocs(
      "A conversation's verdicts, what in it can be reviewed (its hand-offs, or it as kept) and in what capacity you may, and its customer messages",
      'staff',
      {
        params: ConversationParamsSchema,
      },
    ),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const log = await logOr404(id);
      const caller = { id: staff.id, role: staff.role };
      const subjects = reviewUnitsOf(log, ALL_TIME).map((unit) => ({
        ...unit,
        youMayReviewAs: reviewerCapacity(log, unit.subject === 'handoff' ? unit.handoff : null, caller),
      }));
      // The customer's messages, to name the one by which a person was due.
      const customerMessages = log.flatMap((e) =>
        e.type === 'message.received' ? [{ seq: e.seq, at: e.at, text: e.data.message.text.slice(0, 200) }] : [],
      );
      return { reviews: reviewsOf(log), subjects, customerMessages };
    },
  );

  app.post(
    '/v1/conversations/:id/reviews',
    routeDocs(
      'Record a verdict: was the hand-off needed, on time, its packet enough (or: should this kept conversation have gone to a person?). The person who took it, or a supervisor',
      'staff',
      { params: ConversationParamsSchema, body: ReviewBodySchema },
    ),
    async (request, reply) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const body = parseInput(ReviewBodySchema, request.body, 'body');
      const outcome = await service.review(id, body, { id: staff.id as StaffId, role: staff.role });
      if (outcome.ok) return reply.code(201).send({ review: { ...outcome.event.data, seq: outcome.event.seq, at: outcome.event.at } });
      const { code, message } = outcome.rejection;
      const status = code === 'not_found' ? 404 : code === 'forbidden' ? 403 : code === 'has_handoff' ? 409 : 400;
      throw new HttpError(status, code, message);
    },
  );

  app.get(
    '/v1/reviews/sample',
    routeDocs(
      'A stratified, seeded sample of what to review over a window (default: the last 24 hours): hand-offs by reason and queue, and kept conversations',
      'supervisor',
      { querystring: ReviewSampleQuerySchema },
    ),
    async (request) => {
      await requireStaff(request, auth, 'supervisor');
      const q = parseInput(ReviewSampleQuerySchema, request.query, 'query');
      const window = metricsWindow(q, auth.clock);
      const logs = await Promise.all((await store.listConversationIds()).map((id) => store.listEvents(id)));
      return reviewSample(logs, window, { seed: q.seed, perStratum: q.perStratum, onlyUnreviewed: q.onlyUnreviewed === 'true' });
    },
  );
}
