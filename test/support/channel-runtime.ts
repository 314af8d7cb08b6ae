import { randomBytes } from 'node:crypto';
import type { Clock, ConversationId, StoredEvent } from '../../src/core/index.js';
import type { Store } from '../../src/store/store.js';
import type { ServeConfig } from '../../src/cli/serve-config.js';
import { channelStoreFor } from '../../src/store/sql-channel-store.js';
import { startScriptedWhatsAppServer, type ScriptedWhatsAppServer } from '../../src/testing/scripted-whatsapp-server.js';
import { notedPolicy, startTestRuntime, type TestRuntime, type TestStoreKind } from './runtime-server.js';

/** Fresh secrets for one test run, as the environment would hold them. */
export function channelSecrets() {
  return {
    BATON_WHATSAPP_APP_SECRET: `appsecret-${randomBytes(16).toString('hex')}`,
    BATON_WHATSAPP_VERIFY_TOKEN: `verify-${randomBytes(16).toString('hex')}`,
    BATON_WHATSAPP_ACCESS_TOKEN: `EAAG${randomBytes(24).toString('hex')}`,
    BATON_WEBHOOK_CRM_SECRET: `whsec-${randomBytes(24).toString('hex')}`,
  };
}

export const ORDER_TEMPLATE = {
  name: 'order_update',
  language: 'en',
  body: 'Hello, there is news about your order {{1}}. Reply to continue.',
};

/** A runtime with the WhatsApp channel pointed at a scripted Cloud API, both on `clock`. */
export async function startWhatsAppRuntime(
  kind: TestStoreKind,
  clock: Clock,
  extra: {
    config?: Partial<ServeConfig>;
    policy?: NonNullable<Parameters<typeof startTestRuntime>[1]>['policy'];
    /** An open store to run on (a restart: the one the previous runtime used, reopened). */
    store?: Store;
    delivery?: { attempts: number; baseMs: number; maxMs: number };
    /** The scripted Cloud API and secrets of a previous runtime (a restart). */
    wa?: ScriptedWhatsAppServer;
    secrets?: ReturnType<typeof channelSecrets>;
  } = {},
): Promise<{ server: TestRuntime; wa: ScriptedWhatsAppServer; secrets: ReturnType<typeof channelSecrets>; close: () => Promise<void> }> {
  const secrets = extra.secrets ?? channelSecrets();
  const wa =
    extra.wa ??
    (await startScriptedWhatsAppServer({
      appSecret: secrets.BATON_WHATSAPP_APP_SECRET,
      accessToken: secrets.BATON_WHATSAPP_ACCESS_TOKEN,
      approvedTemplates: [`${ORDER_TEMPLATE.name}:${ORDER_TEMPLATE.language}`],
      clock,
    }));
  const server = await startTestRuntime(kind, {
    ...(extra.store ? { store: extra.store } : {}),
    clock,
    env: secrets,
    policy: extra.policy ?? (() => notedPolicy()),
    config: {
      ...extra.config,
      channels: {
        whatsapp: {
          graphBaseUrl: wa.graphBaseUrl,
          phoneNumberIds: [wa.phoneNumberId],
          templates: [ORDER_TEMPLATE],
          appSecretEnv: 'BATON_WHATSAPP_APP_SECRET',
          verifyTokenEnv: 'BATON_WHATSAPP_VERIFY_TOKEN',
          accessTokenEnv: 'BATON_WHATSAPP_ACCESS_TOKEN',
          windowMarginMs: 60_000,
        },
        webhooks: [],
        delivery: extra.delivery ?? { attempts: 3, baseMs: 5, maxMs: 20 },
      },
    },
  });
  wa.setWebhook(`${server.base}/v1/channels/whatsapp/webhook`);
  return {
    server,
    wa,
    secrets,
    close: async () => {
      await server.close();
      await wa.close();
    },
  };
}

/** Waits until the agent's turns and the channel deliveries have finished (no sleeping: both report idle). */
export async function settled(server: TestRuntime): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await server.runtime.service.idle();
    await server.runtime.channels?.idle();
  }
}

/** The conversation a WhatsApp customer is in now. */
export async function conversationOf(server: TestRuntime, phoneNumberId: string, waId: string): Promise<ConversationId | null> {
  return (await channelStoreFor(server.store).bindingOf('whatsapp', `${phoneNumberId}:${waId}`))?.conversationId ?? null;
}

/** Signs in again (a virtual clock that jumped past the session's 12 hours ends it). */
export async function signIn(server: TestRuntime, who: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${server.base}/v1/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: who.email, password: who.password }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** A JSON request with a bearer token. */
export async function call(
  server: TestRuntime,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.base}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

export const ofType = <T extends StoredEvent['type']>(events: readonly StoredEvent[], type: T) =>
  events.filter((e): e is Extract<StoredEvent, { type: T }> => e.type === type);
