import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  roleAtLeast,
  type Conversation,
  type ConversationId,
  type QueueId,
  type StaffId,
  type StaffProfile,
  type StoredEvent,
} from '../core/index.js';
import { staleOutcome, type CommandOutcome, type SendOutcome } from '../runtime/gateway.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import type { RuntimeRouter } from '../runtime/router/runtime-router.js';
import { parseCursor } from '../runtime/service/customer-feed.js';
import { csrfTokenFor, requireStaff, SESSION_COOKIE, type CallerDeps } from './auth/callers.js';
import { tokenHash } from './auth/secrets.js';
import { addStaff, NewStaffSchema, signIn } from './auth/staff-accounts.js';
import { errorBody, HttpError } from './http-errors.js';
import { ConversationParamsSchema, PageQuerySchema, parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';
import {
  AssistBodySchema,
  ClaimBodySchema,
  CloseBodySchema,
  HandBackBodySchema,
  LoginBodySchema,
  ReplyBodySchema,
  TransferBodySchema,
} from './staff-schemas.js';

/** A queue people work, and the skills that let them work it (any one of them). */
export interface StaffedQueue {
  id: QueueId;
  skills: readonly string[];
}

/** Options of {@link registerStaffRoutes}. */
export interface StaffRoutesOptions {
  service: ConversationService;
  auth: CallerDeps;
  queues: readonly StaffedQueue[];
  /** Whether the session cookie is marked Secure (behind HTTPS). */
  secureCookies: boolean;
  /** Sign-in attempts per minute per client address. */
  loginsPerMinute: number;
  sessionMs: number;
  /** The router, for warm transfers (absent: only cold ones). */
  router?: RuntimeRouter;
}

/** Whether a staff member may work a queue: supervisors and admins any, agents those they have a skill for. */
export function mayWork(staff: StaffProfile, queue: StaffedQueue | undefined): boolean {
  if (roleAtLeast(staff.role, 'supervisor')) return true;
  return queue !== undefined && queue.skills.some((s) => staff.skills.includes(s));
}

const lastOf = <T extends StoredEvent['type']>(events: readonly StoredEvent[], type: T) =>
  events.findLast((e): e is Extract<StoredEvent, { type: T }> => e.type === type);

/**
 * The answer to a refused staff action: what was refused, and what the conversation is now. A
 * reply the customer's channel may not carry now (`template_required`) is a 409 like the others.
 */
function refusal(reply: FastifyReply, outcome: Extract<CommandOutcome | SendOutcome, { ok: false }>): FastifyReply {
  const { code, message } = outcome.rejection;
  if (code === 'not_found') return reply.code(404).send(errorBody('not_found', message));
  if (code === 'not_owner') return reply.code(403).send(errorBody('not_owner', message));
  const current = 'current' in outcome ? { conversation: outcome.current } : {};
  return reply.code(409).send({ ...errorBody(code, message), ...current });
}

/**
 * The human side of the gateway: sign-in, the queue, claim, reply, transfer, hand back, close,
 * read. Every route checks who calls and their role; every action carries the version the person
 * saw and is refused (409, with the conversation as it is) when that version is stale.
 */
export function registerStaffRoutes(app: FastifyInstance, options: StaffRoutesOptions): void {
  const { service, auth } = options;
  const queues = new Map(options.queues.map((q) => [q.id as string, q]));
  const gateway = service.gateway;
  const conversationOr404 = async (id: ConversationId): Promise<Conversation> => {
    const c = await gateway.store.getConversation(id);
    if (!c) throw new HttpError(404, 'not_found', `there is no conversation ${id}`);
    return c;
  };

  app.post(
    '/v1/staff/login',
    {
      ...routeDocs('Sign in: a session token and an HttpOnly, SameSite=Strict cookie', 'anyone', { body: LoginBodySchema }),
      config: { rateLimit: { max: options.loginsPerMinute, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const body = parseInput(LoginBodySchema, request.body, 'body');
      const signedIn = await signIn(auth.directory, body, { clock: auth.clock, sessionMs: options.sessionMs });
      if (!signedIn) throw new HttpError(401, 'invalid_credentials', 'the e-mail address or the password is wrong');
      reply.setCookie(SESSION_COOKIE, signedIn.token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: options.secureCookies,
        path: '/',
        expires: new Date(signedIn.session.expiresAt),
      });
      return {
        token: signedIn.token,
        csrfToken: csrfTokenFor(signedIn.token),
        staff: signedIn.profile,
        expiresAt: signedIn.session.expiresAt,
      };
    },
  );

  app.post('/v1/staff/logout', routeDocs('Sign out: ends the session', 'staff'), async (request, reply) => {
    const caller = await requireStaff(request, auth);
    await auth.directory.removeSession(tokenHash(caller.token));
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { signedOut: true };
  });

  app.get('/v1/staff/me', routeDocs('Who is signed in (and the CSRF token of a cookie session)', 'staff'), async (request) => {
    const caller = await requireStaff(request, auth);
    return { staff: caller.staff, ...(caller.via === 'cookie' ? { csrfToken: csrfTokenFor(caller.token) } : {}) };
  });

  app.get('/v1/staff', routeDocs('The staff accounts', 'supervisor'), async (request) => {
    await requireStaff(request, auth, 'supervisor');
    return { staff: (await auth.directory.listStaff()).map(({ passwordHash: _hidden, ...profile }) => profile) };
  });

  app.post(
    '/v1/staff',
    routeDocs('Make a staff account (a generated password is shown once)', 'admin', { body: NewStaffSchema }),
    async (request, reply) => {
      await requireStaff(request, auth, 'admin');
      const body = parseInput(NewStaffSchema, request.body, 'body');
      const added = await addStaff(auth.directory, body, auth.clock);
      if (!added.ok) throw new HttpError(409, added.code, added.message);
      return reply
        .code(201)
        .send({ staff: added.profile, ...(added.generatedPassword ? { generatedPassword: added.generatedPassword } : {}) });
    },
  );

  app.get(
    '/v1/queue',
    routeDocs('Conversations waiting for a person, oldest first', 'staff', { querystring: PageQuerySchema }),
    async (request) => {
      const { staff } = await requireStaff(request, auth);
      const { limit } = parseInput(PageQuerySchema, request.query, 'query');
      const waiting = await gateway.store.listConversations({ states: ['HANDOFF_PENDING', 'QUEUED'], limit: 1000 });
      const now = auth.clock.now();
      const visible = waiting.filter((c) => c.owner.type === 'queue' && mayWork(staff, queues.get(c.owner.id))).slice(0, limit);
      const items = await Promise.all(
        visible.map(async (c) => {
          const events = await gateway.store.listEvents(c.id);
          const requested = lastOf(events, 'handoff.requested');
          const packet = lastOf(events, 'packet.built')?.data.packet ?? null;
          const since = c.queuedAt ?? requested?.at ?? c.updatedAt;
          return {
            id: c.id,
            version: c.version,
            state: c.state,
            queue: c.owner.type === 'queue' ? c.owner.id : null,
            reason: requested?.data.reason ?? null,
            intent: (packet?.['intent'] as string | undefined) ?? null,
            priority: 'normal',
            waitedMs: Math.max(0, now - Date.parse(since)),
            promisedWaitMs: null,
            packet,
          };
        }),
      );
      return { conversations: items };
    },
  );

  app.get(
    '/v1/conversations/:id',
    routeDocs('A conversation for staff: its state, packet and log, paged', 'staff', {
      params: ConversationParamsSchema,
      querystring: PageQuerySchema,
    }),
    async (request) => {
      await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const page = parseInput(PageQuerySchema, request.query, 'query');
      const after = parseCursor(page.after);
      if (after === null) throw new HttpError(400, 'invalid_request', 'query.after: a cursor is the `cursor` a previous answer gave');
      const conversation = await conversationOr404(id);
      const events = await gateway.store.listEvents(id, { afterSeq: after, limit: page.limit });
      const packets = await gateway.store.listEvents(id, { types: ['packet.built'] });
      return {
        conversation,
        packet: lastOf(packets, 'packet.built')?.data.packet ?? null,
        events,
        cursor: String(events.at(-1)?.seq ?? after),
      };
    },
  );

  const staffAction = (
    path: string,
    summary: string,
    schema: Parameters<typeof routeDocs>[2],
    act: (id: ConversationId, staff: StaffProfile, body: unknown) => Promise<CommandOutcome | SendOutcome>,
    status = 200,
  ) =>
    app.post(path, routeDocs(summary, 'staff', { params: ConversationParamsSchema, ...schema }), async (request, reply) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const outcome = await act(id, staff, request.body);
      if (!outcome.ok) return refusal(reply, outcome);
      if ('delivered' in outcome) {
        if (!outcome.delivered)
          return reply.code(409).send({
            ...errorBody('not_speaker', 'you no longer own this conversation; the reply was not delivered'),
            conversation: await conversationOr404(id),
          });
        return reply.code(status).send({ message: outcome.message });
      }
      return reply.code(status).send({ conversation: outcome.conversation });
    });

  staffAction(
    '/v1/conversations/:id/claim',
    'Take the conversation; exactly one claimer wins',
    { body: ClaimBodySchema },
    async (id, staff, raw) => {
      const body = parseInput(ClaimBodySchema, raw, 'body');
      const c = await conversationOr404(id);
      if (c.state === 'AGENT_ACTIVE' && !roleAtLeast(staff.role, 'supervisor')) {
        throw new HttpError(403, 'forbidden', 'taking a conversation over from the agent needs the supervisor role');
      }
      if (c.owner.type === 'queue' && !mayWork(staff, queues.get(c.owner.id))) {
        throw new HttpError(403, 'forbidden', `you have none of the skills of ${c.owner.id}`);
      }
      return service.claim(id, staff.id as StaffId, body.version);
    },
  );

  staffAction(
    '/v1/conversations/:id/replies',
    'Reply to the customer as the owner',
    { body: ReplyBodySchema },
    async (id, staff, raw) => {
      const body = parseInput(ReplyBodySchema, raw, 'body');
      const c = await conversationOr404(id);
      if (!(c.owner.type === 'human' && c.owner.id === staff.id)) {
        return { ok: false, rejection: { code: 'not_owner', message: `you do not own the conversation (${c.owner.type} does)` } };
      }
      return service.reply(id, staff.id as StaffId, body);
    },
    201,
  );

  staffAction(
    '/v1/conversations/:id/hand-back',
    'Hand back to the agent with notes and constraints',
    { body: HandBackBodySchema },
    async (id, staff, raw) => {
      const body = parseInput(HandBackBodySchema, raw, 'body');
      return service.handBack(id, staff.id as StaffId, body);
    },
  );

  app.post(
    '/v1/conversations/:id/transfer',
    routeDocs(
      'Pass the conversation on: cold (at once, to a queue or a person) or warm (offered; yours until accepted, cold to the queue if declined or unanswered)',
      'staff',
      { params: ConversationParamsSchema, body: TransferBodySchema },
    ),
    async (request, reply) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const body = parseInput(TransferBodySchema, request.body, 'body');
      const me = staff.id as StaffId;
      let to: { type: 'queue'; id: QueueId } | { type: 'human'; id: StaffId };
      if (body.to.startsWith('queue_')) {
        if (!queues.has(body.to)) throw new HttpError(400, 'invalid_request', `body.to: there is no queue ${body.to}`);
        to = { type: 'queue', id: body.to as QueueId };
      } else {
        if (!(await auth.directory.staffById(body.to as StaffId)))
          throw new HttpError(400, 'invalid_request', `body.to: there is no staff member ${body.to}`);
        to = { type: 'human', id: body.to as StaffId };
      }
      if (body.mode === 'cold') {
        const outcome = await service.transfer(id, me, { version: body.version, to });
        return outcome.ok ? { conversation: outcome.conversation } : refusal(reply, outcome);
      }
      if (!options.router) throw new HttpError(400, 'unsupported_mode', 'mode "warm" needs the router; use "cold"');
      const c = await conversationOr404(id);
      if (c.version !== body.version) return refusal(reply, staleOutcome(body.version, c));
      if (!(c.owner.type === 'human' && c.owner.id === me))
        return refusal(reply, {
          ok: false,
          rejection: { code: 'not_owner', message: 'only the person who owns the conversation can pass it on' },
        });
      if (to.type === 'human' && to.id === me) throw new HttpError(400, 'invalid_request', 'body.to: you already own the conversation');
      const offered = await options.router.warmTransfer(c, me, to);
      if (!offered.ok) {
        const why = offered.why === 'no_room' ? `${to.id} has no room for another conversation` : `${to.id} is not available`;
        throw new HttpError(409, offered.why, `${why}; try someone else, a queue, or a cold transfer`);
      }
      return reply.code(202).send({ warm: { request: offered.request }, conversation: c });
    },
  );

  staffAction(
    '/v1/conversations/:id/assist',
    'Assisted mode on or off: the agent drafts replies for you (in the log as draft.proposed), never sent by themselves',
    { body: AssistBodySchema },
    async (id, staff, raw) => service.assist(id, staff.id as StaffId, parseInput(AssistBodySchema, raw, 'body')),
  );

  staffAction('/v1/conversations/:id/close', 'Close the conversation', { body: CloseBodySchema }, async (id, staff, raw) => {
    const body = parseInput(CloseBodySchema, raw, 'body');
    return service.close(id, staff.id as StaffId, body);
  });
}
