/**
 * A scripted stand-in for Meta's WhatsApp Cloud API: a test double, not WhatsApp. It is a real
 * HTTP server that speaks the one Graph API endpoint Baton uses — `POST /{version}/{phone number
 * id}/messages`, text and template messages, with the bearer access token — and records every
 * message it accepts, with the time of its clock. In the other direction it plays the customer's
 * phone: it builds Cloud API webhook bodies (messages, status callbacks), signs them with the app
 * secret (`X-Hub-Signature-256`) and POSTs them to Baton's webhook.
 *
 * What it does not do: deliver anything to a phone, check media, rate-limit, or know any template
 * but those it was told are approved. Like Meta it accepts a free-form message sent after the
 * customer's 24-hour window (with a 200 and a message id; Meta then reports it failed, code
 * 131047), so a sender that ignores the window looks as if it worked: this server keeps its own
 * reckoning of the window from the webhooks it sent and marks such a message `outsideWindow`, and
 * the tests count them.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../core/index.js';

/** 24 hours: WhatsApp's customer-service window, as this server reckons it. */
const WINDOW_MS = 24 * 60 * 60_000;

/** A message the server accepted from a business. */
export interface AcceptedMessage {
  /** The message id it answered with (`wamid.…`). */
  wamid: string;
  /** The server's clock when it arrived (ms). */
  at: number;
  phoneNumberId: string;
  to: string;
  type: 'text' | 'template';
  text: string | null;
  template: { name: string; language: string; parameters: string[] } | null;
  /** A free-form text that arrived when the customer's window had closed (Meta would fail it with 131047). */
  outsideWindow: boolean;
}

/** Options of {@link startScriptedWhatsAppServer}. */
export interface ScriptedWhatsAppServerOptions {
  appSecret: string;
  accessToken: string;
  /** The business number (phone number id) the customer writes to. */
  phoneNumberId?: string;
  /** Templates the server treats as approved, as `name:language`; others get Meta's error 132001. */
  approvedTemplates?: readonly string[];
  /** Whose time stamps messages and webhooks (the test's virtual clock). */
  clock?: Clock;
}

/** A running scripted Cloud API. */
export interface ScriptedWhatsAppServer {
  /** The Graph API base to configure Baton with: `http://127.0.0.1:<port>/v21.0`. */
  graphBaseUrl: string;
  phoneNumberId: string;
  /** Every message accepted, in order (a live array). */
  accepted: AcceptedMessage[];
  /** Requests to the messages endpoint, answered or not. */
  readonly requests: number;
  /** Resolves once the messages endpoint has had `count` requests in all. */
  waitForRequests(count: number): Promise<void>;
  /** The next `count` requests to the messages endpoint get `status` (500 by default) and are not accepted. */
  failNext(count: number, status?: number): void;
  /** Where webhooks go: Baton's `…/v1/channels/whatsapp/webhook`. */
  setWebhook(url: string): void;
  /** The customer `from` writes `text`; signed with the app secret unless `signWith` says otherwise. */
  customerWrites(input: { from: string; text: string; id?: string; signWith?: string | null }): Promise<WebhookAnswer>;
  /** Sends a status callback about a message the server accepted. */
  reportStatus(input: { wamid: string; status: 'sent' | 'delivered' | 'read' | 'failed'; errorCode?: number }): Promise<WebhookAnswer>;
  /** Sends a body as it is, with the headers given (tests of malformed and unsigned webhooks). */
  post(body: string, headers: Record<string, string>): Promise<WebhookAnswer>;
  close(): Promise<void>;
}

/** Baton's answer to a webhook. */
export interface WebhookAnswer {
  status: number;
  body: unknown;
  /** The id of the message sent, for a customer message. */
  id: string | null;
}

const graphError = (code: number, message: string) =>
  JSON.stringify({ error: { message, type: 'OAuthException', code, fbtrace_id: 'scripted' } });

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the server on 127.0.0.1 and a free port. */
export async function startScriptedWhatsAppServer(options: ScriptedWhatsAppServerOptions): Promise<ScriptedWhatsAppServer> {
  const clock = options.clock ?? { now: Date.now };
  const phoneNumberId = options.phoneNumberId ?? '109876543210';
  const approved = new Set(options.approvedTemplates ?? []);
  const accepted: AcceptedMessage[] = [];
  const lastInbound = new Map<string, number>();
  let failures: { count: number; status: number } = { count: 0, status: 500 };
  let requests = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  let webhook: string | null = null;
  let sequence = 0;

  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const match = /^\/(v\d+\.\d+)\/(\d+)\/messages$/.exec(req.url ?? '');
      const send = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      if (req.method !== 'POST' || !match)
        return send(
          404,
          graphError(100, 'Unsupported request: this scripted server knows POST /{version}/{phone number id}/messages only'),
        );
      requests += 1;
      for (const w of waiters.filter((w) => requests >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      if (req.headers.authorization !== `Bearer ${options.accessToken}`) return send(401, graphError(190, 'Invalid OAuth access token.'));
      if (failures.count > 0) {
        failures.count -= 1;
        return send(failures.status, graphError(2, 'Service temporarily unavailable (scripted failure)'));
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return send(400, graphError(100, 'Invalid JSON'));
      }
      const to = typeof body['to'] === 'string' ? body['to'] : '';
      if (body['messaging_product'] !== 'whatsapp' || !/^\d{1,20}$/.test(to)) return send(400, graphError(100, 'Invalid parameter'));
      const at = clock.now();
      const wamid = `wamid.${randomBytes(12).toString('hex')}`;
      const last = lastInbound.get(`${match[2]}:${to}`);
      const open = last !== undefined && at < last + WINDOW_MS;
      if (body['type'] === 'text') {
        const t = body['text'] as { body?: unknown } | undefined;
        if (typeof t?.body !== 'string' || t.body.length === 0 || t.body.length > 4096)
          return send(400, graphError(100, 'Invalid parameter: text.body'));
        accepted.push({ wamid, at, phoneNumberId: match[2]!, to, type: 'text', text: t.body, template: null, outsideWindow: !open });
      } else if (body['type'] === 'template') {
        const t = body['template'] as
          { name?: unknown; language?: { code?: unknown }; components?: { parameters?: { text?: unknown }[] }[] } | undefined;
        const name = typeof t?.name === 'string' ? t.name : '';
        const language = typeof t?.language?.code === 'string' ? t.language.code : '';
        if (!approved.has(`${name}:${language}`)) return send(404, graphError(132001, 'Template name does not exist in the translation'));
        const parameters = (t?.components?.[0]?.parameters ?? []).map((p) => String(p.text ?? ''));
        accepted.push({
          wamid,
          at,
          phoneNumberId: match[2]!,
          to,
          type: 'template',
          text: null,
          template: { name, language, parameters },
          outsideWindow: false,
        });
      } else {
        return send(400, graphError(100, 'Invalid parameter: type'));
      }
      send(200, JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: wamid }] }));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const sign = (body: string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

  async function post(body: string, headers: Record<string, string>): Promise<WebhookAnswer> {
    if (webhook === null) throw new Error('scripted WhatsApp server: setWebhook(url) first');
    const res = await fetch(webhook, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text.
    }
    return { status: res.status, body: parsed, id: null };
  }

  const envelope = (value: Record<string, unknown>) =>
    JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'WHATSAPP_BUSINESS_ACCOUNT_ID',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550000000', phone_number_id: phoneNumberId },
                ...value,
              },
            },
          ],
        },
      ],
    });

  return {
    graphBaseUrl: `http://127.0.0.1:${port}/v21.0`,
    phoneNumberId,
    accepted,
    get requests() {
      return requests;
    },
    waitForRequests(count) {
      if (requests >= count) return Promise.resolve();
      return new Promise<void>((resolve) => waiters.push({ count, resolve }));
    },
    failNext(count, status = 500) {
      failures = { count, status };
    },
    setWebhook(url) {
      webhook = url;
    },
    async customerWrites(input) {
      const at = clock.now();
      sequence += 1;
      const id = input.id ?? `wamid.in${sequence}.${randomBytes(8).toString('hex')}`;
      const body = envelope({
        contacts: [{ profile: { name: 'Customer' }, wa_id: input.from }],
        messages: [{ from: input.from, id, timestamp: String(Math.floor(at / 1000)), type: 'text', text: { body: input.text } }],
      });
      const secret = input.signWith === undefined ? options.appSecret : input.signWith;
      const answer = await post(body, secret === null ? {} : { 'x-hub-signature-256': sign(body, secret) });
      // The window opens with a message the business received (Meta's timestamps are whole seconds).
      if (answer.status === 200) {
        const key = `${phoneNumberId}:${input.from}`;
        lastInbound.set(key, Math.max(lastInbound.get(key) ?? 0, Math.floor(at / 1000) * 1000));
      }
      return { ...answer, id };
    },
    async reportStatus(input) {
      const sent = accepted.find((m) => m.wamid === input.wamid);
      const body = envelope({
        statuses: [
          {
            id: input.wamid,
            status: input.status,
            timestamp: String(Math.floor(clock.now() / 1000)),
            recipient_id: sent?.to ?? '0',
            ...(input.errorCode !== undefined ? { errors: [{ code: input.errorCode, title: 'scripted error' }] } : {}),
          },
        ],
      });
      return post(body, { 'x-hub-signature-256': sign(body, options.appSecret) });
    },
    post,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
