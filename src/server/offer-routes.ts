import type { FastifyInstance } from 'fastify';
import type { ConversationId, StaffId } from '../core/index.js';
import type { RuntimeRouter } from '../runtime/router/runtime-router.js';
import type { Store } from '../store/store.js';
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
export function registerOfferRoutes(app: FastifyInstance, options: { router: RuntimeRouter; auth: CallerDeps; store: Store }): void {
  const { router, auth, store } = options;
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

  app.get(
    '/v1/staff/me/presence',
    routeDocs('Where you are, as the router holds it (offline until you say otherwise)', 'staff'),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const state = await router.staffState(staff.id as StaffId);
      return state
        ? { presence: state.presence, capacity: state.capacity, used: state.used }
        : { presence: 'offline', capacity: 0, used: 0 };
    },
  );

  app.get('/v1/staff/colleagues', routeDocs('The staff accounts by name, for passing a conversation on', 'staff'), async (request) => {
    await requireStaff(request, auth);
    const accounts = await auth.directory.listStaff();
    return { staff: accounts.map((a) => ({ id: a.id, name: a.name, email: a.email, role: a.role })) };
  });

  /** What the person deciding needs beside the offer: why a person was asked for, and who passes it on (a warm offer). */
  const context = async (conversationId: ConversationId) => {
    const [conversation, events] = await Promise.all([
      store.getConversation(conversationId),
      store.listEvents(conversationId, { types: ['handoff.requested', 'packet.built'] }),
    ]);
    const reason = events.findLast((e) => e.type === 'handoff.requested')?.data.reason ?? null;
    const packet = events.findLast((e) => e.type === 'packet.built')?.data.packet;
    const intent = (packet?.['intent'] as unknown) ?? null;
    const owner = conversation?.owner;
    const from = owner?.type === 'human' ? await auth.directory.staffById(owner.id as StaffId) : null;
    return { reason, intent, from: from ? { id: from.id, name: from.name, email: from.email } : null };
  };

  app.get('/v1/offers', routeDocs('Conversations offered to you, waiting for your answer', 'staff'), async (request) => {
    const { staff } = await requireStaff(request, auth);
    const offers = await router.offers(staff.id as StaffId);
    return {
      offers: await Promise.all(
        offers.map(async (o) => ({
          id: o.reservation,
          conversationId: o.conversationId,
          queue: o.queue,
          offeredAt: new Date(o.createdAt).toISOString(),
          expiresAt: new Date(o.expiresAt).toISOString(),
          ...(await context(o.conversationId)),
        })),
      ),
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
