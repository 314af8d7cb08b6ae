import { describe, expect, it } from 'vitest';
import { scriptedPolicy } from '../testing/scripted-policy.js';
import { fallbackPolicy } from './fallback-policy.js';

const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

describe('provider fallback', () => {
  it('falls through provider failures to the next policy', async () => {
    const primary = scriptedPolicy([{ fail: 'server_error' }], { name: 'primary' });
    const secondary = scriptedPolicy([{ reply: 'from the fallback' }], { name: 'secondary' });
    const policy = fallbackPolicy([primary, secondary]);
    expect(policy.name).toBe('primary → secondary');
    expect(await policy.next(request)).toMatchObject({ ok: true, content: 'from the fallback' });
    expect([primary.requests.length, secondary.requests.length]).toEqual([1, 1]);
  });

  it('does not fall through a bad request or an abort, and returns the last failure when all fail', async () => {
    const secondary = scriptedPolicy([{ reply: 'never' }]);
    expect(await fallbackPolicy([scriptedPolicy([{ fail: 'bad_request' }]), secondary]).next(request)).toMatchObject({
      ok: false,
      failure: { kind: 'bad_request' },
    });
    expect(await fallbackPolicy([scriptedPolicy([{ fail: 'aborted' }]), secondary]).next(request)).toMatchObject({
      ok: false,
      failure: { kind: 'aborted' },
    });
    expect(secondary.requests).toHaveLength(0);
    const both = fallbackPolicy([scriptedPolicy([{ fail: 'timeout' }]), scriptedPolicy([{ fail: 'rate_limited' }])]);
    expect(await both.next(request)).toMatchObject({ ok: false, failure: { kind: 'rate_limited' } });
  });
});
