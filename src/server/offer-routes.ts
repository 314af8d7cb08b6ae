import type { FastifyInstance } from 'fastify';
import type { StaffId } from '../core/index.js';
import type { RuntimeRouter } from '../runtime/router/runtime-router.js';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { HttpError } from './http-errors.js';
import { parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';
import { DeclineBodySchema, OfferParamsSchema, PresenceBodySchema } from './staff-schemas.js';

/** What an offer answer that was not taken tells the caller. */
const REFUSED = {
  not_found: [404, 'not_found', 'there is no such offer'],
  // Someone else's offer is as invisible as one that does not exist.
  not_yours: [404, 'not_found', 'there is no such offer'],
  expired: [409, 'offer_expired', 'the offer timed out and went to someone else'],
  answered: [409, 'offer_answered', 'the offer was already answered'],
  withdrawn: [409, 'offer_withdrawn', 'the offer was withdrawn: the customer left, or someone else took the conversation'],
  gone: [409, 'conversation_moved', 'the conversation was closed or taken before you accepted; your slot is free again'],
} as const;

/**
 * The router's side of the staff API: presence, the offers (reservations) made to the caller,
 * accept and decline. An offer is only ever visible to the person it was made to.
 */
export function registerOfferRoutes(app: FastifyInstance, options: { router: RuntimeRouter; auth: CallerDeps }): void {
  const { router, auth } = options;
  const refused = (why: keyof typeof REFUSED): never => {
    const [status, code, message] = REFUSED[why];
    throw new HttpError(status, code, message);
  };

  app.put(
    '/v1/staff/me/presence',
    routeDocs('Say where you are: available takes offers; busy, away and offline do not', 'staff', { body: PresenceBodySchema }),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const { presence } = parseInput(PresenceBodySchema, request.body, 'body');
      const state = await router.setPresence(staff.id as StaffId, presence);
      return { presence: state.presence, capacity: state.capacity, used: state.used };
    },
  );

  app.get('/v1/offers', routeDocs('Conversations offered to you, waiting for your answer', 'staff'), async (request) => {
    const { staff } = await requireStaff(request, auth);
    const offers = await router.offers(staff.id as StaffId);
    return {
      offers: offers.map((o) => ({
        id: o.reservation,
        conversationId: o.conversationId,
        queue: o.queue,
        offeredAt: new Date(o.createdAt).toISOString(),
        expiresAt: new Date(o.expiresAt).toISOString(),
      })),
    };
  });

  app.post(
    '/v1/offers/:id/accept',
    routeDocs('Accept an offer: the conversation is yours', 'staff', { params: OfferParamsSchema }),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(OfferParamsSchema, request.params, 'params');
      const me = staff.id as StaffId;
      const accepted = await router.accept(id, me);
      if (!accepted.ok) return refused(accepted.why);
      return { conversation: accepted.conversation };
    },
  );

  app.post(
    '/v1/offers/:id/decline',
    routeDocs('Decline an offer, with a reason: it goes to someone else, never back to you', 'staff', {
      params: OfferParamsSchema,
      body: DeclineBodySchema,
    }),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(OfferParamsSchema, request.params, 'params');
      const { reason } = parseInput(DeclineBodySchema, request.body ?? {}, 'body');
      const declined = await router.decline(id, staff.id as StaffId, reason);
      if (!declined.ok) return refused(declined.why);
      return { declined: true };
    },
  );
}
