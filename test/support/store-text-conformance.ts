import { describe, expect, it } from 'vitest';
import {
  createIdGenerator,
  MAX_MESSAGE_CHARS,
  newConversation,
  SCHEMA_VERSION,
  type Conversation,
  type ConversationId,
  type Message,
  type NewEvent,
  type StaffId,
} from '../../src/core/index.js';
import type { Gateway } from '../../src/runtime/gateway.js';
import { TEST_AGENT } from '../../src/testing/gateway-fixture.js';
import type { Store } from '../../src/store/store.js';
import { UnstorableTextError } from '../../src/store/unstorable-text.js';

/**
 * Text that every store must give back exactly as written (compared code unit by code unit).
 * Short enough to be an idempotency key or a customer id (at most 200 characters).
 */
export const STORABLE_TEXTS: Readonly<Record<string, string>> = {
  'RTL marks and override': '\u200Fשלום\u200F \u202Eevil\u202C \u061Cعربي',
  'ZWJ emoji sequences': '👩‍👩‍👧‍👦 🏳️‍🌈 🧑🏽‍💻',
  'combining marks (decomposed, not normalised)': 'e\u0301 a\u0308\u0323 \u1E9B\u0323',
  'the same letter precomposed': '\u00E9 \u00E4\u0323 \u1E9B\u0323',
  '4-byte characters': '𝄞 𠜎 😀 \u{10FFFF}',
  'byte order mark': '\uFEFFstarts with a BOM',
  noncharacters: 'U+FFFF \uFFFF U+FFFE \uFFFE U+FDD0 \uFDD0',
  'escape look-alikes': String.raw`\u0000 \ud800 \\ \" \n` + '"quoted" \\',
  'control characters but NUL': '\u0001\u0007\b\t\n\v\f\r\u001B\u001F\u007F\u0085',
  'line and paragraph separators': 'a\u2028b\u2029c',
  'replacement character itself': '\uFFFD',
  'the longest key, all 4-byte characters': '😀'.repeat(100),
};

/** Text that every store must refuse, with `UnstorableTextError`, before writing anything. */
export const UNSTORABLE_TEXTS: Readonly<Record<string, { text: string; reason: 'lone_surrogate' | 'nul' }>> = {
  'lone high surrogate': { text: 'key-\uD800', reason: 'lone_surrogate' },
  'another lone high surrogate': { text: 'key-\uD801', reason: 'lone_surrogate' },
  'lone low surrogate': { text: '\uDC00-key', reason: 'lone_surrogate' },
  'a pair in the wrong order': { text: '\uDE00\uD83D', reason: 'lone_surrogate' },
  NUL: { text: '\u0000', reason: 'nul' },
  'NUL inside text': { text: 'before\u0000after', reason: 'nul' },
};

const LONG_LINE = 'long line without a break '.repeat(Math.ceil(MAX_MESSAGE_CHARS / 26)).slice(0, MAX_MESSAGE_CHARS);
const LONG_OUTPUT = `${'🙂 wide '.repeat(40_000)}end`;

/**
 * The store conformance suite's text part: the corpus round-trips identically, or is refused
 * identically, as message text, idempotency key, customer id, outbound (delivered and
 * suppressed) text and data inside log entries (tool outputs and arguments).
 */
export function describeStorableText(context: () => { store: Store; gateway: Gateway }): void {
  const ids = createIdGenerator({ now: Date.now, random: Math.random });
  const inbound = (conversationId: ConversationId, text: string, idempotencyKey: string | null): Message => ({
    schemaVersion: SCHEMA_VERSION,
    id: ids.message(),
    conversationId,
    direction: 'inbound',
    sender: { type: 'customer' },
    text,
    idempotencyKey,
    at: new Date().toISOString(),
  });
  const toolCalled = (conversationId: ConversationId, output: string, argument: string): NewEvent => ({
    schemaVersion: 1,
    id: ids.event(),
    conversationId,
    at: new Date().toISOString(),
    type: 'tool.called',
    data: { agent: TEST_AGENT, name: 'lookup', arguments: { query: argument, [argument]: [argument] }, ok: true, output },
  });

  describe('text round-trips exactly or is refused before anything is written', () => {
    const storable = [...Object.entries(STORABLE_TEXTS), ['a line of the longest message', LONG_LINE] as const];

    it.each(storable)('message text: %s', async (_name, text) => {
      const { store, gateway } = context();
      const c = await gateway.open();
      const r = await gateway.receive(c.id, { text, idempotencyKey: 'k' });
      expect(r.ok && r.message.text === text).toBe(true);
      const [stored] = await store.listMessages(c.id);
      expect(stored?.text === text, 'listMessages').toBe(true);
      const received = (await store.listEvents(c.id)).find((e) => e.type === 'message.received');
      expect(received?.type === 'message.received' && received.data.message.text === text, 'listEvents').toBe(true);
    });

    it.each(Object.entries(STORABLE_TEXTS))('idempotency key and customer id: %s', async (_name, text) => {
      const { store, gateway } = context();
      const c = await gateway.open({ customerId: text });
      expect((await store.getConversation(c.id))?.customerId === text).toBe(true);
      const created = (await store.listEvents(c.id))[0];
      expect(created?.type === 'conversation.created' && created.data.conversation.customerId === text).toBe(true);
      const first = await gateway.receive(c.id, { text: 'first', idempotencyKey: text });
      const again = await gateway.receive(c.id, { text: 'redelivered', idempotencyKey: text });
      expect([first.ok && first.duplicate, again.ok && again.duplicate]).toEqual([false, true]);
      expect(again.ok && again.message.idempotencyKey === text).toBe(true);
      expect((await store.listMessages(c.id)).map((m) => m.text)).toEqual(['first']);
    });

    it('keeps keys distinct that differ only in normalisation, a BOM or a noncharacter', async () => {
      const { store, gateway } = context();
      const c = await gateway.open();
      const keys = ['\u00E9', 'e\u0301', '\uFEFFk', 'k', 'k\uFFFF', 'k\uFFFE', '\uFFFD'];
      for (const key of keys) expect(await gateway.receive(c.id, { text: key, idempotencyKey: key })).toMatchObject({ duplicate: false });
      expect((await store.listMessages(c.id)).map((m) => m.idempotencyKey)).toEqual(keys);
    });

    it.each(storable)('outbound text, delivered and suppressed: %s', async (_name, text) => {
      const { store, gateway } = context();
      const c = await gateway.open();
      const agent = { type: 'agent', id: TEST_AGENT } as const;
      expect(await gateway.send(c.id, agent, text)).toMatchObject({ delivered: true });
      await gateway.claim(c.id, 'staff_text' as StaffId);
      const late = await gateway.send(c.id, agent, text);
      expect(late).toMatchObject({ delivered: false });
      const events = await store.listEvents(c.id);
      const sent = events.find((e) => e.type === 'message.sent');
      const suppressed = events.find((e) => e.type === 'message.suppressed');
      expect(sent?.type === 'message.sent' && sent.data.message.text === text, 'sent').toBe(true);
      expect(suppressed?.type === 'message.suppressed' && suppressed.data.text === text, 'suppressed').toBe(true);
    });

    it.each([...Object.entries(STORABLE_TEXTS), ['a 320,000-character tool output', LONG_OUTPUT] as const])(
      'tool output and arguments inside a log entry: %s',
      async (_name, text) => {
        const { store, gateway } = context();
        const c = await gateway.open();
        const entry = toolCalled(c.id, text, text.slice(0, 200));
        await store.appendRecords(c.id, [entry]);
        const stored = (await store.listEvents(c.id)).at(-1);
        expect(stored).toEqual({ ...entry, seq: 2 });
      },
    );

    const unstorable = Object.entries(UNSTORABLE_TEXTS).map(([name, { text, reason }]) => [name, text, reason] as const);

    it.each(unstorable)('refuses %s everywhere, changing nothing', async (_name, text, reason) => {
      const { store, gateway } = context();
      const refused = { name: 'UnstorableTextError', reason };
      const c = await gateway.open();
      const before = await store.listEvents(c.id);
      const attempts: [string, () => Promise<unknown>][] = [
        ['message text', () => store.appendInbound(inbound(c.id, text, 'k'), ids.event())],
        ['idempotency key', () => store.appendInbound(inbound(c.id, 'hello', text), ids.event())],
        [
          'outbound text',
          () =>
            store.appendOutbound(
              { ...inbound(c.id, text, null), direction: 'outbound', sender: { type: 'agent', id: TEST_AGENT } },
              ids.event(),
            ),
        ],
        ['tool output', () => store.appendRecords(c.id, [toolCalled(c.id, text, 'q')])],
        ['tool argument', () => store.appendRecords(c.id, [toolCalled(c.id, 'out', text)])],
        [
          'a transition',
          () =>
            store.transition({
              conversationId: c.id,
              expectedVersion: c.version,
              next: { ...c, version: c.version + 1, channel: text },
              events: [toolCalled(c.id, 'out', 'q')],
            }),
        ],
      ];
      for (const [what, attempt] of attempts) {
        const error = await attempt().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, what).toBeInstanceOf(UnstorableTextError);
        expect(error, what).toMatchObject(refused);
        expect((error as Error).message, what).not.toContain(text);
      }
      expect(await store.listEvents(c.id)).toEqual(before);
      expect(await store.getConversation(c.id)).toEqual(c);

      const customer: Conversation = {
        ...newConversation({ id: ids.conversation(), agentId: TEST_AGENT, channel: 'api', customerId: text, at: c.createdAt }),
      };
      const created: NewEvent = {
        schemaVersion: 1,
        id: ids.event(),
        conversationId: customer.id,
        at: c.createdAt,
        type: 'conversation.created',
        data: { conversation: customer },
      };
      await expect(store.createConversation(customer, created)).rejects.toMatchObject(refused);
      expect(await store.getConversation(customer.id)).toBeNull();
    });

    it('keeps two keys apart that a lossy store would merge: both are refused, neither answered as a duplicate', async () => {
      const { store } = context();
      const c = await context().gateway.open();
      for (const key of [UNSTORABLE_TEXTS['lone high surrogate']!.text, UNSTORABLE_TEXTS['another lone high surrogate']!.text]) {
        await expect(store.appendInbound(inbound(c.id, 'x', key), ids.event())).rejects.toBeInstanceOf(UnstorableTextError);
      }
      expect(await store.listMessages(c.id)).toEqual([]);
    });
  });
}
