import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header of a signed webhook, Baton's own scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-baton-signature';
/** The header that names an outbound delivery: the same id on every retry, so a receiver keeps it once. */
export const WEBHOOK_DELIVERY_HEADER = 'x-baton-delivery';
/** WhatsApp Cloud API's signature header: `sha256=<hex HMAC-SHA256 of the raw body with the app secret>`. */
export const HUB_SIGNATURE_HEADER = 'x-hub-signature-256';

/** How old (or how far ahead) a webhook's timestamp may be: older ones are replays. */
export const DEFAULT_REPLAY_WINDOW_MS = 5 * 60_000;

const hmacHex = (secret: string, parts: readonly (string | Buffer)[]): string => {
  const mac = createHmac('sha256', secret);
  for (const p of parts) mac.update(p);
  return mac.digest('hex');
};

/** Equal hex digests, compared in constant time (a length mismatch is simply unequal). */
function sameHex(a: string, b: string): boolean {
  if (!/^[0-9a-f]+$/i.test(a) || !/^[0-9a-f]+$/i.test(b)) return false;
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The signature header of a webhook body sent at `atMs`: the timestamp is inside the signed base. */
export function signWebhook(secret: string, body: string | Buffer, atMs: number): string {
  const t = Math.floor(atMs / 1000);
  return `t=${t},v1=${hmacHex(secret, [`${t}.`, body])}`;
}

/** Why a signed request was refused; nothing it carried is acted on. */
export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'stale' };

/**
 * Checks a webhook's `t=…,v1=…` header against the raw body: the HMAC over `t.body` with the
 * channel's secret, compared in constant time, and `t` within `windowMs` of now (a captured
 * request replayed later is refused). Several `v1=` entries are allowed (a secret being rotated).
 */
export function verifyWebhook(
  secrets: readonly string[],
  header: string | undefined,
  body: Buffer,
  nowMs: number,
  windowMs = DEFAULT_REPLAY_WINDOW_MS,
): SignatureCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const fields = header.split(',').map((f) => f.trim().split('='));
  const t = fields.find(([k]) => k === 't')?.[1];
  const signatures = fields.filter(([k, v]) => k === 'v1' && v !== undefined).map(([, v]) => v!);
  if (t === undefined || !/^\d{1,12}$/.test(t) || signatures.length === 0 || signatures.length > 5)
    return { ok: false, reason: 'malformed' };
  const matches = secrets.some((secret) => {
    const expected = hmacHex(secret, [`${t}.`, body]);
    return signatures.some((s) => sameHex(s, expected));
  });
  if (!matches) return { ok: false, reason: 'mismatch' };
  // Checked after the signature, so an attacker learns nothing about the clock from the answer.
  if (Math.abs(nowMs - Number(t) * 1000) > windowMs) return { ok: false, reason: 'stale' };
  return { ok: true };
}

/** The `X-Hub-Signature-256` value Meta sends with a body. */
export const hubSignature = (appSecret: string, body: string | Buffer): string => `sha256=${hmacHex(appSecret, [body])}`;

/** Checks WhatsApp's `X-Hub-Signature-256` against the raw body with the app secret, in constant time. */
export function verifyHubSignature(appSecret: string, header: string | undefined, body: Buffer): SignatureCheck {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return { ok: false, reason: 'malformed' };
  return sameHex(match[1]!, hmacHex(appSecret, [body])) ? { ok: true } : { ok: false, reason: 'mismatch' };
}

/** Constant-time equality of two secrets given as text (the WhatsApp verify token). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // Compare digests so the lengths are equal and the time does not depend on where they differ.
  const x = createHmac('sha256', 'verify').update(a).digest();
  const y = createHmac('sha256', 'verify').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}
