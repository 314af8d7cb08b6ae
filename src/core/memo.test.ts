import { describe, expect, it } from 'vitest';
import { memoByText } from './memo.js';

describe('memoByText', () => {
  it('works a text out once, remembers falsy answers too, and starts afresh past its limit', () => {
    const calls: string[] = [];
    const f = memoByText((t: string) => {
      calls.push(t);
      return t === 'none' ? null : t.length;
    }, 2);
    expect([f('ab'), f('ab'), f('none'), f('none')]).toEqual([2, 2, null, null]);
    expect(calls).toEqual(['ab', 'none']);
    f('xyz'); // the third text: the memory is full, so it starts afresh
    f('ab');
    expect(calls).toEqual(['ab', 'none', 'xyz', 'ab']);
  });
});
