import { describe, expect, it } from 'vitest';
import { allMatches } from './all-matches.js';

const summary = (ms: Iterable<RegExpMatchArray>) => [...ms].map((m) => [m.index, m[0]]);

describe('allMatches', () => {
  it.each([
    [/\d+/g, 'a1 b22 c333'],
    [/x*/g, 'axxb'],
    [/(?<=a)b/g, 'abab cb'],
    [/\bno\b/g, 'no, no and nothing'],
    [/q/g, 'none here'],
  ])('finds what matchAll finds for %s', (re, text) => {
    expect(summary(allMatches(re, text))).toEqual(summary(text.matchAll(re)));
    expect(re.lastIndex).toBe(0);
  });

  it('refuses a pattern that is not global', () => {
    expect(() => allMatches(/a/, 'a')).toThrow(/global/);
  });
});
