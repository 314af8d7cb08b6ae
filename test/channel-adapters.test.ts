/**
 * One suite every channel adapter runs (the port's contract), against a real provider on loopback:
 * the scripted Cloud API for WhatsApp, a local receiver for the webhook channel. A message is
 * delivered and named; a 5xx or an unreachable provider is worth retrying, a 4xx is not; the
 * answer never quotes the credentials; and free-form messages are refused exactly when the
 * channel's rules say so.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, MessageId } from '../src/core/index.js';
import type { ChannelAdapter, OutboundMessage } from '../src/runtime/channels/channel-port.js';
import { createWebhookChannel } from '../src/runtime/channels/webhook-channel.js';
import { createWhatsAppChannel } from '../src/runtime/channels/whatsapp-channel.js';
import { WHATSAPP_WINDOW_MS } from '../src/runtime/channels/whatsapp-window.js';
import type { ChannelBinding } from '../src/store/channel-store.js';
import { startScriptedWhatsAppServer, type ScriptedWhatsAppServer } from '../src/testing/scripted-whatsapp-server.js';

const NOW = Date.UTC(2026, 11, 1, 12);
const TOKEN = 'EAAG-access-token-for-the-suite';
const SECRET = 'whsec-for-the-suite';

interface Case {
  name: string;
  adapter: () => ChannelAdapter;
  /** An adapter pointed at a port nothing listens on. */
  unreachable: () => ChannelAdapter;
  binding: (lastCustomerAt: string | null) => ChannelBinding;
  /** The next delivery is answered with this status. */
  failNext: (status: number) => void;
  /** Whether the channel has a free-form window. */
  windowed: boolean;
}

let wa: ScriptedWhatsAppServer;
let receiver: Server;
let receiverUrl = '';
const receiverScript: number[] = [];

beforeAll(async () => {
  wa = await startScriptedWhatsAppServer({ appSecret: 'app', accessToken: TOKEN, clock: { now: () => NOW } });
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(receiverScript.shift() ?? 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
});
afterAll(async () => {
  await wa.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const binding = (channel: string, address: string) => (lastCustomerAt: string | null) => ({
  channel,
  address,
  conversationId: 'conv_suite' as ConversationId,
  lastCustomerAt,
  deliveredSeq: 0,
  boundAt: new Date(NOW).toISOString(),
});

const cases: Case[] = [
  {
    name: 'whatsapp',
    adapter: () => createWhatsAppChannel({ graphBaseUrl: wa.graphBaseUrl, accessToken: TOKEN, templates: [] }),
    unreachable: () => createWhatsAppChannel({ graphBaseUrl: 'http://127.0.0.1:9/v21.0', accessToken: TOKEN, templates: [] }),
    binding: (at) => binding('whatsapp', `${wa.phoneNumberId}:447700900999`)(at),
    failNext: (status) => wa.failNext(1, status),
    windowed: true,
  },
  {
    name: 'webhook',
    adapter: () => createWebhookChannel({ id: 'suite', deliverTo: receiverUrl, secret: SECRET, clock: { now: () => NOW } }),
    unreachable: () => createWebhookChannel({ id: 'suite', deliverTo: 'http://127.0.0.1:9/in', secret: SECRET, clock: { now: () => NOW } }),
    binding: (at) => binding('webhook:suite', 'contact-1')(at),
    failNext: (status) => receiverScript.push(status),
    windowed: false,
  },
];

const message = (text = 'Your refund is on its way.'): OutboundMessage => ({
  messageId: 'msg_suite' as MessageId,
  conversationId: 'conv_suite' as ConversationId,
  sender: { type: 'system' },
  text,
  at: new Date(NOW).toISOString(),
  template: null,
});

for (const c of cases) {
  describe(`channel adapter: ${c.name}`, () => {
    const recent = new Date(NOW - 60_000).toISOString();

    it('delivers a message', async () => {
      const attempt = await c.adapter().deliver(c.binding(recent), message(), 1);
      expect(attempt.ok).toBe(true);
    });

    it('asks for a retry on a 5xx or an unreachable provider, and not on a 4xx, without quoting credentials', async () => {
      c.failNext(503);
      const busy = await c.adapter().deliver(c.binding(recent), message(), 1);
      expect(busy).toMatchObject({ ok: false, retry: true });
      const down = await c.unreachable().deliver(c.binding(recent), message(), 1);
      expect(down).toMatchObject({ ok: false, retry: true });
      c.failNext(400);
      const refused = await c.adapter().deliver(c.binding(recent), message(), 1);
      expect(refused).toMatchObject({ ok: false, retry: false });
      for (const a of [busy, down, refused]) {
        const reason = a.ok ? '' : a.reason;
        expect(reason).not.toContain(TOKEN);
        expect(reason).not.toContain(SECRET);
      }
    });

    it(c.windowed ? 'refuses free-form messages outside its window only' : 'carries free-form messages at any time', () => {
      const adapter = c.adapter();
      const open = adapter.freeFormRefusal(c.binding(recent), NOW);
      const old = adapter.freeFormRefusal(c.binding(new Date(NOW - WHATSAPP_WINDOW_MS - 1).toISOString()), NOW);
      const never = adapter.freeFormRefusal(c.binding(null), NOW);
      expect(open).toBeNull();
      if (c.windowed) {
        expect(old?.deadline).toBe(new Date(NOW - 1).toISOString());
        expect(old?.message).toMatch(/a template is needed/);
        expect(never).toMatchObject({ deadline: null });
      } else {
        expect([old, never]).toEqual([null, null]);
      }
    });
  });
}
