import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { MAX_MESSAGE_CHARS, storableText, type Clock, type ConversationId, type StaffId } from '../core/index.js';
import type { Channels, InboundOutcome } from '../runtime/channels/channels.js';
import {
  HUB_SIGNATURE_HEADER,
  sameSecret,
  verifyHubSignature,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
} from '../runtime/channels/signatures.js';
import { readWhatsAppWebhook, WhatsAppWebhookSchema } from '../runtime/channels/whatsapp-payload.js';
import { windowDeadlineOf } from '../runtime/channels/whatsapp-window.js';
import type { ConversationService } from '../runtime/service/conversation-service.js';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { errorBody, HttpError } from './http-errors.js';
import { ConversationParamsSchema, parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';

/** What the routes need of the WhatsApp channel: its secrets, in memory only. */
export interface WhatsAppEdge {
  appSecret: string;
  verifyToken: string;
  /** Business numbers this deployment answers (null: any). */
  phoneNumberIds: ReadonlySet<string> | null;
}

/** What the routes need of one webhook channel. */
export interface WebhookEdge {
  id: string;
  secret: string;
  replayWindowMs: number;
}

/** Options of {@link registerChannelRoutes}. */
export interface ChannelRoutesOptions {
  channels: Channels;
  whatsapp: WhatsAppEdge | null;
  webhooks: readonly WebhookEdge[];
}

const VerifyQuerySchema = z.looseObject({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, 'the challenge is the short token Meta sends')
    .optional(),
});

/** Body of `POST /v1/channels/webhooks/:channel`: one customer message. */
export const WebhookInboundSchema = z.strictObject({
  /** The sender's id of the message: it repeats on redelivery, and the message is stored once. */
  messageId: storableText(z.string().min(1).max(150)),
  /** The customer's address on that system (replies are delivered to it). */
  from: storableText(z.string().min(1).max(200)),
  text: storableText(z.string().min(1).max(MAX_MESSAGE_CHARS)),
  /** When the customer sent it (ISO-8601); default: when it arrived. */
  sentAt: z.iso.datetime({ offset: true }).optional(),
});

const TemplateBodySchema = z.strictObject({
  name: z.string().min(1).max(512),
  language: z.string().min(2).max(20),
  parameters: z
    .array(storableText(z.string().max(1024)))
    .max(20)
    .default([]),
  version: z.number().int().positive(),
});

const WebhookParamsSchema = z.strictObject({ channel: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a webhook channel id') });

const badSignature = (why: string) => new HttpError(401, 'bad_signature', why);

/** The JSON of a raw body, or a 400. */
function jsonOf(raw: unknown): unknown {
  if (!Buffer.isBuffer(raw)) throw new HttpError(400, 'invalid_json', 'send the body as application/json');
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'invalid_json', 'the body is not valid JSON');
  }
}

/**
 * The channels' routes. Inbound ones are signed by the sender and checked over the raw body
 * (a content-type parser that keeps the bytes, in this plugin only), before anything is parsed
 * or stored: a bad, missing or old signature is 401 and changes nothing. Staff send templates and
 * read a conversation's channel and window.
 */
export async function registerChannelRoutes(
  app: FastifyInstance,
  options: ChannelRoutesOptions & { service: ConversationService; auth: CallerDeps; clock: Clock; bodyLimitBytes: number },
): Promise<void> {
  const { channels, whatsapp, auth, clock } = options;
  const webhooks = new Map(options.webhooks.map((w) => [w.id, w]));

  await app.register(async (signed) => {
    // Signatures are over the bytes as sent: keep them, for these routes only.
    signed.removeAllContentTypeParsers();
    signed.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.bodyLimitBytes }, (_request, body, done) =>
      done(null, body),
    );

    if (whatsapp) {
      signed.get(
        '/v1/channels/whatsapp/webhook',
        routeDocs("WhatsApp's verification handshake: answers hub.challenge when hub.verify_token matches", 'anyone'),
        async (request, reply) => {
          const query = parseInput(VerifyQuerySchema, request.query, 'query');
          const token = query['hub.verify_token'];
          if (query['hub.mode'] !== 'subscribe' || token === undefined || !sameSecret(token, whatsapp.verifyToken)) {
            return reply
              .code(403)
              .send(errorBody('forbidden', 'hub.mode must be subscribe and hub.verify_token the configured verify token'));
          }
          if (query['hub.challenge'] === undefined) throw new HttpError(400, 'invalid_request', 'query.hub.challenge is required');
          return reply.type('text/plain; charset=utf-8').send(query['hub.challenge']);
        },
      );

      signed.post(
        '/v1/channels/whatsapp/webhook',
        routeDocs('WhatsApp Cloud API webhook (X-Hub-Signature-256): customer messages, stored once; status callbacks', 'anyone'),
        async (request) => {
          const raw = request.body;
          if (!Buffer.isBuffer(raw)) throw badSignature('the body must be signed with X-Hub-Signature-256');
          const check = verifyHubSignature(whatsapp.appSecret, headerOf(request, HUB_SIGNATURE_HEADER), raw);
          if (!check.ok)
            throw badSignature(`X-Hub-Signature-256 is ${check.reason}: it must be sha256=<HMAC-SHA256 of the body with the app secret>`);
          const body = parseInput(WhatsAppWebhookSchema, jsonOf(raw), 'body');
          const { messages, statuses } = readWhatsAppWebhook(body, whatsapp.phoneNumberIds);
          const outcomes: InboundOutcome[] = [];
          for (const m of messages) outcomes.push(await channels.receive(m));
          const recorded = await channels.recordStatuses('whatsapp', statuses);
          return {
            received: outcomes.filter((o) => o.type === 'stored').length,
            duplicates: outcomes.filter((o) => o.type === 'duplicate').length,
            refused: outcomes.filter((o) => o.type === 'refused').length,
            statuses: recorded,
          };
        },
      );
    }

    signed.post(
      '/v1/channels/webhooks/:channel',
      routeDocs('A signed webhook channel (X-Baton-Signature: t=…,v1=…): one customer message, stored once per messageId', 'anyone', {
        params: WebhookParamsSchema,
        body: WebhookInboundSchema,
      }),
      async (request, reply) => {
        const { channel } = parseInput(WebhookParamsSchema, request.params, 'params');
        const edge = webhooks.get(channel);
        if (!edge) throw new HttpError(404, 'not_found', `there is no webhook channel ${channel}`);
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) throw badSignature(`the body must be signed with ${WEBHOOK_SIGNATURE_HEADER}`);
        const check = verifyWebhook([edge.secret], headerOf(request, WEBHOOK_SIGNATURE_HEADER), raw, clock.now(), edge.replayWindowMs);
        if (!check.ok) {
          throw badSignature(
            check.reason === 'stale'
              ? `the signature's timestamp is more than ${Math.round(edge.replayWindowMs / 1000)} s from now: a replay, or a clock to fix`
              : `${WEBHOOK_SIGNATURE_HEADER} is ${check.reason}: it must be t=<unix seconds>,v1=<HMAC-SHA256 of "t.body" with the channel's secret>`,
          );
        }
        const body = parseInput(WebhookInboundSchema, jsonOf(raw), 'body');
        const outcome = await channels.receive({
          channel: `webhook:${edge.id}`,
          address: body.from,
          providerMessageId: body.messageId,
          text: body.text,
          sentAt: body.sentAt ? new Date(body.sentAt).toISOString() : new Date(clock.now()).toISOString(),
        });
        if (outcome.type === 'refused') throw new HttpError(409, 'conversation_full', outcome.reason);
        return reply.code(outcome.type === 'stored' ? 201 : 200).send({ duplicate: outcome.type === 'duplicate' });
      },
    );
  });

  app.post(
    '/v1/conversations/:id/templates',
    routeDocs('Send an approved template as the owner (the one kind of message WhatsApp carries after its 24-hour window)', 'staff', {
      params: ConversationParamsSchema,
      body: TemplateBodySchema,
    }),
    async (request, reply) => {
      const { staff } = await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      const body = parseInput(TemplateBodySchema, request.body, 'body');
      const c = await options.service.gateway.store.getConversation(id);
      if (!c) throw new HttpError(404, 'not_found', `there is no conversation ${id}`);
      if (!(c.owner.type === 'human' && c.owner.id === staff.id)) {
        throw new HttpError(403, 'not_owner', `you do not own the conversation (${c.owner.type} does)`);
      }
      const outcome = await channels.sendTemplate(id, staff.id as StaffId, body);
      if (!outcome.ok) {
        const { code, message } = outcome.rejection;
        if (code === 'not_found') throw new HttpError(404, code, message);
        if (code === 'unknown_template' || code === 'bad_parameters') throw new HttpError(400, code, message);
        const current = 'current' in outcome ? { conversation: outcome.current } : {};
        return reply.code(409).send({ ...errorBody(code, message), ...current });
      }
      if (!outcome.delivered) {
        return reply.code(409).send({
          ...errorBody('not_speaker', 'you no longer own this conversation; the template was not sent'),
          conversation: await options.service.gateway.store.getConversation(id),
        });
      }
      return reply.code(201).send({ message: outcome.message });
    },
  );

  app.get(
    '/v1/conversations/:id/channel',
    routeDocs("The conversation's channel address and, on WhatsApp, when its free-form window closes", 'staff', {
      params: ConversationParamsSchema,
    }),
    async (request) => {
      await requireStaff(request, auth);
      const { id } = parseInput(ConversationParamsSchema, request.params, 'params');
      if (!(await options.service.gateway.store.getConversation(id)))
        throw new HttpError(404, 'not_found', `there is no conversation ${id}`);
      const binding = await channels.binding(id as ConversationId);
      if (!binding) return { channel: null };
      const deadline = binding.channel === 'whatsapp' ? windowDeadlineOf(binding.lastCustomerAt) : null;
      return {
        channel: binding.channel,
        address: binding.address,
        lastCustomerAt: binding.lastCustomerAt,
        windowDeadline: deadline?.toISOString() ?? null,
        windowOpen: binding.channel === 'whatsapp' ? deadline !== null && deadline.getTime() > clock.now() : null,
      };
    },
  );
}

/** A header sent once (a repeated signature header is refused as malformed). */
function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? '' : value;
}
