import { describe, expect, it } from 'vitest';
import { hubSignature, sameSecret, signWebhook, verifyHubSignature, verifyWebhook } from './signatures.js';

const body = Buffer.from('{"messageId":"m-1","from":"c","text":"hi"}');
const now = Date.UTC(2026, 11, 1, 12);

describe('webhook signatures', () => {
  it('accept their own signature, inside the replay window only', () => {
    const header = signWebhook('s3cret', body, now);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(['s3cret'], header, body, now)).toEqual({ ok: true });
    expect(verifyWebhook(['s3cret'], header, body, now + 4 * 60_000)).toEqual({ ok: true });
    expect(verifyWebhook(['s3cret'], header, body, now + 6 * 60_000)).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhook(['s3cret'], header, body, now - 6 * 60_000)).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhook(['s3cret'], header, body, now + 9 * 60_000, 10 * 60_000)).toEqual({ ok: true });
  });

  it('refuse another secret, another body, a missing or malformed header', () => {
    const header = signWebhook('s3cret', body, now);
    expect(verifyWebhook(['other'], header, body, now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(['s3cret'], header, Buffer.from(`${body.toString()} `), now)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(['s3cret'], undefined, body, now)).toEqual({ ok: false, reason: 'missing' });
    for (const bad of ['v1=abc', 't=abc,v1=abc', `t=${now / 1000}`, 'nonsense']) {
      expect(verifyWebhook(['s3cret'], bad, body, now)).toEqual({ ok: false, reason: 'malformed' });
    }
    // A signature cut short or of another length never matches.
    expect(verifyWebhook(['s3cret'], header.slice(0, -2), body, now)).toEqual({ ok: false, reason: 'mismatch' });
  });

  it('accept either of two secrets while one is being rotated', () => {
    const header = signWebhook('new', body, now);
    expect(verifyWebhook(['old', 'new'], header, body, now)).toEqual({ ok: true });
  });
});

describe("WhatsApp's X-Hub-Signature-256", () => {
  it('is sha256= and the hex HMAC of the raw body with the app secret', () => {
    const header = hubSignature('app-secret', body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyHubSignature('app-secret', header, body)).toEqual({ ok: true });
    expect(verifyHubSignature('app-secret', header.toUpperCase().replace('SHA256', 'sha256'), body)).toEqual({ ok: true });
    expect(verifyHubSignature('other', header, body)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyHubSignature('app-secret', header, Buffer.from('{}'))).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyHubSignature('app-secret', undefined, body)).toEqual({ ok: false, reason: 'missing' });
    expect(verifyHubSignature('app-secret', 'sha1=abc', body)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('sameSecret', () => {
  it('is equality of the texts', () => {
    expect(sameSecret('token', 'token')).toBe(true);
    expect(sameSecret('token', 'token2')).toBe(false);
    expect(sameSecret('', 'token')).toBe(false);
  });
});
