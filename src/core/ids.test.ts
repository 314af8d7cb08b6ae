import { describe, expect, it } from 'vitest';
import { ConversationIdSchema, createIdGenerator, MessageIdSchema } from './ids.js';
import { seededRandom } from './random.js';

describe('ids', () => {
  it('are prefixed, validate against their own kind only, and sort by creation time', () => {
    let now = 1_700_000_000_000;
    const random = seededRandom(1);
    const ids = createIdGenerator({ now: () => now, random: random.next });
    const made: string[] = [];
    for (let i = 0; i < 500; i += 1) {
      if (i % 7 === 0) now += 1; // several ids within one millisecond, too
      made.push(ids.conversation());
    }
    expect(made.every((id) => ConversationIdSchema.safeParse(id).success)).toBe(true);
    expect(MessageIdSchema.safeParse(made[0]).success).toBe(false);
    expect([...made].sort()).toEqual(made);
    expect(new Set(made).size).toBe(made.length);
  });

  it('a seed fixes the sequence', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(new Set(xs).size).toBe(5);
  });
});
