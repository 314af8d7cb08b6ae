import { z } from 'zod';
import type { Clock } from '../core/index.js';
import type { ChannelAdapter } from '../runtime/channels/channel-port.js';
import type { RetryPolicy } from '../runtime/channels/channel-outbox.js';
import type { Fetch } from '../runtime/channels/post-json.js';
import { DEFAULT_REPLAY_WINDOW_MS } from '../runtime/channels/signatures.js';
import { createWebhookChannel } from '../runtime/channels/webhook-channel.js';
import { createWhatsAppChannel, templatePlaceholders } from '../runtime/channels/whatsapp-channel.js';
import type { WebhookEdge, WhatsAppEdge } from '../server/channel-routes.js';

/** The name of an environment variable that holds a secret: the configuration names it, never holds it. */
const EnvNameSchema = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]{0,99}$/, 'an environment variable name: capitals, digits and _ (the secret itself goes in the environment)');

const httpUrl = (what: string) =>
  z
    .string()
    .max(2000)
    .refine((s) => {
      try {
        return ['http:', 'https:'].includes(new URL(s).protocol);
      } catch {
        return false;
      }
    }, `${what} must be an http(s) URL`);

/** An approved WhatsApp template: its name, language and body text with `{{1}}`… placeholders, as registered with Meta. */
export const TemplateConfigSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, 'a template name is lower-case letters, digits and _'),
  language: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a language code such as en or en_US'),
  body: z.string().min(1).max(1024),
});

/** A configuration key that would put a secret in the file: refused with what to do instead. */
const noSecretHere = (envKey: string) =>
  z.never({ error: `secrets do not go in the configuration file: put it in an environment variable and name that in ${envKey}` });

/** `channels.whatsapp`: the Cloud API adapter. Secrets come from the environment variables named here. */
export const WhatsAppConfigSchema = z.strictObject({
  /** The Graph API base, version included. */
  graphBaseUrl: httpUrl('graphBaseUrl').default('https://graph.facebook.com/v21.0'),
  /** The business numbers (phone number ids) this deployment answers; others' webhooks are ignored. Default: any. */
  phoneNumberIds: z
    .array(z.string().regex(/^[0-9]{1,30}$/, 'a phone number id is digits'))
    .min(1)
    .max(50)
    .optional(),
  appSecretEnv: EnvNameSchema.default('BATON_WHATSAPP_APP_SECRET'),
  verifyTokenEnv: EnvNameSchema.default('BATON_WHATSAPP_VERIFY_TOKEN'),
  accessTokenEnv: EnvNameSchema.default('BATON_WHATSAPP_ACCESS_TOKEN'),
  templates: z.array(TemplateConfigSchema).max(500).default([]),
  /** A free-form message is refused this long before the 24-hour window closes (ms). */
  windowMarginMs: z.number().int().min(0).max(3_600_000).default(60_000),
  appSecret: noSecretHere('appSecretEnv').optional(),
  verifyToken: noSecretHere('verifyTokenEnv').optional(),
  accessToken: noSecretHere('accessTokenEnv').optional(),
});

/** One entry of `channels.webhooks`: a generic signed-webhook channel. */
export const WebhookConfigSchema = z.strictObject({
  /** The channel's id: its inbound route is `POST /v1/channels/webhooks/<id>`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'an id is lower-case letters, digits, - and _ (at most 40)'),
  /** Where outbound messages are POSTed, signed. */
  deliverTo: httpUrl('deliverTo'),
  secretEnv: EnvNameSchema,
  /** How old a signed request's timestamp may be (ms). */
  replayWindowMs: z.number().int().min(10_000).max(3_600_000).default(DEFAULT_REPLAY_WINDOW_MS),
  secret: noSecretHere('secretEnv').optional(),
});

/** `channels`: where customers write besides the HTTP API (docs/channels.md). */
export const ChannelsConfigSchema = z
  .strictObject({
    whatsapp: WhatsAppConfigSchema.optional(),
    webhooks: z.array(WebhookConfigSchema).max(50).default([]),
    /** How outbound deliveries are retried. */
    delivery: z
      .strictObject({
        attempts: z.number().int().min(1).max(20).default(8),
        baseMs: z.number().int().min(1).max(60_000).default(1_000),
        maxMs: z.number().int().min(1).max(3_600_000).default(60_000),
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    const ids = new Set<string>();
    for (const [i, w] of c.webhooks.entries()) {
      if (ids.has(w.id)) ctx.addIssue({ code: 'custom', path: ['webhooks', i, 'id'], message: `${w.id} is listed twice` });
      ids.add(w.id);
    }
    const seen = new Set<string>();
    for (const [i, t] of (c.whatsapp?.templates ?? []).entries()) {
      const key = `${t.name} (${t.language})`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['whatsapp', 'templates', i], message: `${key} is listed twice` });
      seen.add(key);
      if (templatePlaceholders(t.body) > 20)
        ctx.addIssue({ code: 'custom', path: ['whatsapp', 'templates', i, 'body'], message: 'at most 20 placeholders' });
    }
  });
export type ChannelsConfig = z.infer<typeof ChannelsConfigSchema>;

/** The configured channels, with their secrets read from the environment. */
export interface ResolvedChannels {
  adapters: ChannelAdapter[];
  whatsapp: WhatsAppEdge | null;
  webhooks: WebhookEdge[];
  retry: RetryPolicy | null;
}

/**
 * Reads each channel's secrets from the environment variables the configuration names and builds
 * its adapter. A missing variable fails here, before anything is served, naming what to set.
 */
export function resolveChannels(
  config: ChannelsConfig | undefined,
  env: NodeJS.ProcessEnv,
  clock: Clock,
  fetchFn?: Fetch,
): ResolvedChannels {
  const missing: string[] = [];
  const secret = (name: string, what: string): string => {
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      missing.push(`${name} (${what})`);
      return '';
    }
    return value;
  };
  const adapters: ChannelAdapter[] = [];
  let whatsapp: WhatsAppEdge | null = null;
  const wa = config?.whatsapp;
  if (wa) {
    whatsapp = {
      appSecret: secret(wa.appSecretEnv, 'the WhatsApp app secret'),
      verifyToken: secret(wa.verifyTokenEnv, 'the WhatsApp webhook verify token'),
      phoneNumberIds: wa.phoneNumberIds ? new Set(wa.phoneNumberIds) : null,
    };
    adapters.push(
      createWhatsAppChannel({
        graphBaseUrl: wa.graphBaseUrl,
        accessToken: secret(wa.accessTokenEnv, 'the WhatsApp Cloud API access token'),
        templates: wa.templates,
        windowMarginMs: wa.windowMarginMs,
        ...(fetchFn ? { fetch: fetchFn } : {}),
      }),
    );
  }
  const webhooks: WebhookEdge[] = [];
  for (const w of config?.webhooks ?? []) {
    const value = secret(w.secretEnv, `the secret of webhook channel ${w.id}`);
    webhooks.push({ id: w.id, secret: value, replayWindowMs: w.replayWindowMs });
    adapters.push(createWebhookChannel({ id: w.id, deliverTo: w.deliverTo, secret: value, clock, ...(fetchFn ? { fetch: fetchFn } : {}) }));
  }
  if (missing.length > 0) {
    throw new Error(`the configured channels need secrets from the environment; set ${missing.join(', ')}`);
  }
  const d = config?.delivery;
  return { adapters, whatsapp, webhooks, retry: d ? { attempts: d.attempts, baseMs: d.baseMs, maxMs: d.maxMs } : null };
}
