import { describe, expect, it } from 'vitest';
import { detectAbuse } from './abuse.js';

describe('abuse detection', () => {
  it.each([
    'you idiot, just refund me',
    "You're a useless piece of garbage",
    'you are such a moron',
    'fuck you',
    'Screw you and your policy',
    'shut up and transfer me',
    "I'll find you",
    'I know where you live',
    'stupid idiot bot',
    'you’re an absolute clown',
  ])('abusive: %s', (text) => {
    expect(detectAbuse(text)).not.toBeNull();
  });

  it.each([
    'this is useless!',
    'THIS IS RIDICULOUS, ORDER #W123 IS WRONG',
    'I am so frustrated, I have asked three times',
    'you are not helping me at all',
    'what an idiotic policy',
    'my refund is garbage, it never arrived',
    'please shut down my account',
  ])('not abusive: %s', (text) => {
    expect(detectAbuse(text)).toBeNull();
  });
});
