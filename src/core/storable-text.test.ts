import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  checkStorableText,
  findUnstorableText,
  isStorableText,
  sanitizeGenerated,
  sanitizeGeneratedText,
  storableText,
} from './storable-text.js';

const HIGH = '\uD83D';
const LOW = '\uDE00';

describe('storable text', () => {
  it('accepts well-formed text of every kind, including the awkward ones', () => {
    for (const text of [
      '',
      'plain',
      '\u200Fשלום\u202E',
      '👩‍👩‍👧‍👦',
      'e\u0301\u0327',
      '𝄞 \u{10FFFF}',
      '\uFEFFbom',
      'non\uFFFFchar',
      `${HIGH}${LOW}`,
    ]) {
      expect(checkStorableText(text), JSON.stringify(text)).toEqual({ ok: true });
      expect(isStorableText(text)).toBe(true);
    }
  });

  it('refuses lone surrogates (high or low) and NUL, saying where', () => {
    expect(checkStorableText(`ab${HIGH}`)).toMatchObject({ ok: false, reason: 'lone_surrogate', index: 2 });
    expect(checkStorableText(`${LOW}x`)).toMatchObject({ ok: false, reason: 'lone_surrogate', index: 0 });
    expect(checkStorableText(`${LOW}${HIGH}`)).toMatchObject({ ok: false, reason: 'lone_surrogate', index: 0 });
    const nul = checkStorableText('a\u0000b');
    expect(nul).toMatchObject({ ok: false, reason: 'nul', index: 1 });
    expect(!nul.ok && nul.message).toMatch(/NUL \(U\+0000\) at offset 1/);
    expect(isStorableText(`x${HIGH}`)).toBe(false);
  });

  it('finds the first unstorable string inside a value, keys included', () => {
    expect(findUnstorableText({ a: ['ok', { b: 'fine' }], n: 1, z: null })).toBeNull();
    expect(findUnstorableText({ a: ['ok', { b: `x${HIGH}` }] })).toMatchObject({ path: '$.a[1].b', reason: 'lone_surrogate' });
    expect(findUnstorableText({ data: { ['k\u0000']: 1 } })).toMatchObject({ path: '$.data (a key)', reason: 'nul' });
    expect(findUnstorableText('\u0000')).toMatchObject({ path: '$', reason: 'nul' });
  });

  it('adds the rule to a string schema without losing its other checks', () => {
    const Key = storableText(z.string().min(1).max(5));
    expect(Key.safeParse('abc').success).toBe(true);
    expect(Key.safeParse('abcdef').success).toBe(false);
    const bad = Key.safeParse(`a${LOW}`);
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/lone surrogate \(U\+DE00\) at offset 1/);
  });

  it('repairs generated text: lone surrogates become U+FFFD, NUL is removed, good text is untouched', () => {
    expect(sanitizeGeneratedText(`a${HIGH}b\u0000c${LOW}`)).toBe('a\uFFFDbc\uFFFD');
    const good = `${HIGH}${LOW} \u200F e\u0301 \uFEFF`;
    expect(sanitizeGeneratedText(good)).toBe(good);
    expect(isStorableText(sanitizeGeneratedText(`${LOW}${HIGH}\u0000`))).toBe(true);
  });

  it('repairs every string and key of a generated value, and returns a clean value itself', () => {
    const clean = { reply: 'ok', calls: [{ name: 'x', arguments: { q: '😀' } }], n: 1, none: null };
    expect(sanitizeGenerated(clean)).toBe(clean);
    const dirty = { reply: `a${HIGH}`, calls: [{ name: 'x', arguments: { ['k\u0000']: `\u0000${LOW}` } }], n: 1, none: null };
    const repaired = sanitizeGenerated(dirty);
    expect(repaired).toEqual({ reply: 'a\uFFFD', calls: [{ name: 'x', arguments: { k: '\uFFFD' } }], n: 1, none: null });
    expect(repaired.calls).not.toBe(dirty.calls);
    expect(findUnstorableText(repaired)).toBeNull();
  });
});
