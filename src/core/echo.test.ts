import { describe, expect, it } from 'vitest';
import { clipEcho, clipEchoes, MAX_ECHO_CHARS, MAX_ECHO_ITEMS } from './echo.js';

describe('echoes of caller input', () => {
  it('keeps short text and cuts long text to the limit, noting the real length', () => {
    expect(clipEcho('short')).toBe('short');
    const long = 'x'.repeat(10_000);
    const clipped = clipEcho(long);
    expect(clipped.startsWith('x'.repeat(MAX_ECHO_CHARS))).toBe(true);
    expect(clipped.slice(MAX_ECHO_CHARS)).toBe('… (10000 characters)');
  });

  it('never cuts a surrogate pair in half', () => {
    const text = `${'a'.repeat(MAX_ECHO_CHARS - 1)}😀tail`;
    const clipped = clipEcho(text);
    expect(clipped.startsWith(`${'a'.repeat(MAX_ECHO_CHARS - 1)}…`)).toBe(true);
  });

  it('clips every string and key inside a value and caps its lists', () => {
    const key = 'k'.repeat(1_000);
    const value = { path: [key], keys: Array.from({ length: 100 }, (_, i) => `${i}${key}`), nested: { [key]: 'v'.repeat(500) } };
    const clipped = clipEchoes(value);
    expect(JSON.stringify(clipped).length).toBeLessThan(10_000);
    expect(clipped.keys).toHaveLength(MAX_ECHO_ITEMS + 1);
    expect(clipped.keys.at(-1)).toBe('… (80 more)');
    expect(clipped.path[0]).toBe(clipEcho(key));
    expect(Object.keys(clipped.nested)).toEqual([clipEcho(key)]);
  });
});
