import { describe, expect, it } from 'vitest';
import type { CustomerView } from '../user.js';
import type { UserScript } from '../variant.js';
import { createScriptedUser } from './scripted-user.js';

/** A production conversation's turns as a replay script (src/lab/production/). */
const REPLAY: UserScript = {
  request: 'Hi, I was charged twice for my last order.',
  facts: [{ key: 'email', value: 'liam.evans.1089@example.com', askedBy: ['email'], volunteered: false }],
  beats: [
    { turn: 2, kind: 'said', text: 'My email is liam.evans.1089@example.com' },
    { turn: 3, kind: 'said', text: 'Honestly this is the third time I am writing about this.' },
  ],
  onTransfer: 'accept',
  confirms: true,
  maxTurns: 3,
  replay: true,
};

const view = (turn: number, agent: string, transferred = false): CustomerView => ({
  turn,
  transferred,
  messages: [{ from: 'agent', text: agent }],
});

describe('the scripted customer replaying a production conversation', () => {
  it('says each turn as written and nothing of its own, then stops after the last', async () => {
    const user = createScriptedUser(REPLAY, { style: 'neutral', seed: 7 });
    // Asked for a code no fact answers, asked to confirm, asked for the e-mail early: the replay says only its turns.
    await expect(user.next(view(1, 'Hello! How can I help?'))).resolves.toEqual({ text: REPLAY.request, stop: null });
    await expect(user.next(view(2, 'What is the code we sent you? Shall I go ahead?'))).resolves.toEqual({
      text: 'My email is liam.evans.1089@example.com',
      stop: null,
    });
    await expect(user.next(view(3, 'What is your e-mail address?'))).resolves.toEqual({ text: REPLAY.beats[1]!.text, stop: null });
    await expect(user.next(view(4, 'Is there anything else?'))).resolves.toEqual({ text: '###STOP###', stop: '###STOP###' });
    expect(user.log.map((r) => r.lines)).toEqual([['request'], ['beat'], ['beat'], []]);
  });

  it('still accepts an announced transfer', async () => {
    const user = createScriptedUser(REPLAY, { style: 'neutral', seed: 7 });
    await user.next(view(1, 'Hello!'));
    await expect(user.next(view(2, "I'm transferring you to a colleague now."))).resolves.toEqual({
      text: '###TRANSFER###',
      stop: '###TRANSFER###',
    });
  });

  it('keeps every fact in the other styles', async () => {
    const user = createScriptedUser(REPLAY, { style: 'terse', seed: 7 });
    await user.next(view(1, 'Hello!'));
    expect((await user.next(view(2, 'Go on.'))).text).toContain('liam.evans.1089@example.com');
  });
});
