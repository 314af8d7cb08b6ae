import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditLog, ConversationSchema, MessageSchema, StoredEventSchema, type StoredEvent } from '../src/core/index.js';

// A conversation log written by schema version 1, frozen: it must stay readable and replayable
// by every later version of the code. Never regenerate it in an ordinary change.
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'v1', 'conversation-log.json'), 'utf8')) as {
  conversation: unknown;
  messages: unknown[];
  events: unknown[];
};

describe('frozen fixtures: schema version 1', () => {
  it('parses, and its log replays to its conversation with every invariant intact', () => {
    const conversation = ConversationSchema.parse(fixture.conversation);
    const messages = fixture.messages.map((m) => MessageSchema.parse(m));
    const events = fixture.events.map((e) => StoredEventSchema.parse(e));
    const audit = auditLog(events as StoredEvent[], messages);
    expect(audit.violations).toEqual([]);
    expect(audit.replayed).toEqual(conversation);
    expect(conversation).toMatchObject({ state: 'CLOSED', version: 6, handoffCount: 1, lastHumanId: 'staff_ana' });
    expect(events.map((e) => e.type)).toContain('message.suppressed');
  });
});
