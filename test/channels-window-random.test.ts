/**
 * Zero free-form sends outside WhatsApp's 24-hour window, over 1,000 conversations on a virtual
 * clock: customers write through signed webhooks from a scripted Cloud API, the agent answers,
 * a person takes each conversation over and replies (free-form or with a template) at random
 * times, many of them minutes either side of the deadline, sometimes with the clock moving while
 * the reply is on its way. Everything runs through the real routes, the real window logic and the
 * real outbox; the scripted Cloud API keeps its own reckoning of each customer's window from the
 * webhooks it sent, and marks any free-form message that reaches it after the window closed.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../src/core/random.js';
import { WHATSAPP_WINDOW_MS } from '../src/runtime/channels/whatsapp-window.js';
import { fixedClock } from '../src/testing/fixed-clock.js';
import { call, conversationOf, ofType, ORDER_TEMPLATE, settled, signIn, startWhatsAppRuntime } from './support/channel-runtime.js';

const HOUR = 60 * 60_000;
const MARGIN_MS = 60_000;
const CONVERSATIONS = 1_000;

type Action = { at: number; customer: number; kind: 'writes' | 'reply' | 'template' };

describe('WhatsApp: the window on a virtual clock', () => {
  it('sends no free-form message outside the window in 1,000 randomised conversations', async () => {
    const start = Date.UTC(2026, 6, 1);
    const clock = fixedClock(start);
    const random = seededRandom(20261201);
    const { server, wa, close } = await startWhatsAppRuntime('sqlite', clock);
    try {
      const waId = (n: number) => `4477009${String(n).padStart(5, '0')}`;
      // Each customer writes first within 12 hours, then up to five more things happen within 60 hours of that.
      const actions: Action[] = [];
      for (let n = 0; n < CONVERSATIONS; n += 1) {
        const first = start + Math.floor(random.next() * 12 * HOUR);
        actions.push({ at: first, customer: n, kind: 'writes' });
        let last = first;
        for (let k = random.int(1, 5); k > 0; k -= 1) {
          const kind = random.pick(['writes', 'reply', 'reply', 'reply', 'template'] as const);
          // A third of the replies land within five minutes either side of the deadline of the customer's latest message so far.
          const near = kind === 'reply' && random.next() < 0.35;
          const at = near
            ? last + WHATSAPP_WINDOW_MS + Math.floor((random.next() - 0.5) * 10 * 60_000)
            : first + Math.floor(random.next() * 60 * HOUR);
          actions.push({ at: Math.max(at, first + 1), customer: n, kind });
          if (kind === 'writes') last = Math.max(last, at);
        }
      }
      actions.sort((a, b) => a.at - b.at || a.customer - b.customer);

      const person = await server.staff('supervisor');
      let token = person.token;
      let signedInAt = clock.now();
      const lastWrote = new Map<number, number>();
      const versions = new Map<number, number>();
      const conversations = new Map<number, string>();
      const expected = { sent: 0, refused: 0, templates: 0, inFlightMoves: 0 };
      const replied = new Set<string>();
      let sequence = 0;

      for (const action of actions) {
        const now = clock.now();
        if (action.at > now) clock.advance(action.at - now);
        if (clock.now() - signedInAt > 11 * HOUR) {
          token = await signIn(server, person);
          signedInAt = clock.now();
        }
        const n = action.customer;
        if (action.kind === 'writes' || !conversations.has(n)) {
          const answer = await wa.customerWrites({ from: waId(n), text: `message ${(sequence += 1)}` });
          expect(answer.status).toBe(200);
          // What the customer's window runs from: Meta's timestamp, in whole seconds.
          lastWrote.set(n, Math.floor(clock.now() / 1000) * 1000);
          if (!conversations.has(n)) {
            await settled(server);
            const id = (await conversationOf(server, wa.phoneNumberId, waId(n)))!;
            conversations.set(n, id);
            const claimed = await call(server, 'POST', `/v1/conversations/${id}/claim`, token, {
              version: (await server.store.getConversation(id as never))!.version,
            });
            expect(claimed.status).toBe(200);
            versions.set(n, (claimed.body['conversation'] as { version: number }).version);
          }
          if (action.kind === 'writes') continue;
        }
        const id = conversations.get(n)!;
        const version = versions.get(n)!;
        if (action.kind === 'template') {
          const sent = await call(server, 'POST', `/v1/conversations/${id}/templates`, token, {
            name: ORDER_TEMPLATE.name,
            language: ORDER_TEMPLATE.language,
            parameters: [`A-${n}`],
            version,
          });
          expect(sent.status).toBe(201);
          expected.templates += 1;
        } else {
          const text = `reply ${(sequence += 1)}`;
          const answer = await call(server, 'POST', `/v1/conversations/${id}/replies`, token, { text, version });
          // The model of the rule: free-form until a margin before 24 hours after the customer's last message.
          const open = clock.now() < lastWrote.get(n)! + WHATSAPP_WINDOW_MS - MARGIN_MS;
          expect(answer.status, `${text} at ${new Date(clock.now()).toISOString()}`).toBe(open ? 201 : 409);
          if (open) {
            expected.sent += 1;
            replied.add(text);
            // Sometimes the clock moves on (less than the margin) while the reply is on its way.
            if (random.next() < 0.2) {
              clock.advance(Math.floor(random.next() * (MARGIN_MS / 2)));
              expected.inFlightMoves += 1;
            }
          } else {
            expected.refused += 1;
            expect((answer.body['error'] as { code: string; message: string }).message).toMatch(/a template is needed/);
          }
        }
        await settled(server);
      }
      await settled(server);

      const outside = wa.accepted.filter((m) => m.outsideWindow);
      expect(outside).toEqual([]);
      // The test is not empty: replies went out on both sides of the deadline, and templates after it.
      expect(expected.sent).toBeGreaterThan(500);
      expect(expected.refused).toBeGreaterThan(300);
      expect(expected.templates).toBeGreaterThan(100);
      expect(expected.inFlightMoves).toBeGreaterThan(50);
      // Every accepted reply either reached WhatsApp inside the window or, when the clock moved it past the
      // margin on its way, was failed before it left and says so in the log: none is lost, none goes out late.
      const texts = wa.accepted.filter((m) => m.type === 'text').map((m) => m.text!);
      const failedLate = new Set<string>();
      let refusedInLog = 0;
      for (const id of conversations.values()) {
        const events = await server.store.listEvents(id as never);
        refusedInLog += ofType(events, 'delivery.refused').length;
        const sentTexts = new Map(ofType(events, 'message.sent').map((e) => [e.data.message.id, e.data.message.text]));
        for (const failed of ofType(events, 'delivery.failed')) {
          expect(failed.data.reason).toMatch(/a template is needed/);
          failedLate.add(sentTexts.get(failed.data.messageId)!);
        }
      }
      const delivered = texts.filter((t) => t.startsWith('reply '));
      expect([...delivered, ...failedLate].sort()).toEqual([...replied].sort());
      expect(delivered.length).toBeGreaterThan(expected.sent * 0.9);
      expect(texts.filter((t) => t === 'Noted.')).toHaveLength(CONVERSATIONS);
      expect(wa.accepted.filter((m) => m.type === 'template')).toHaveLength(expected.templates);
      // Every refusal is in the log.
      expect(refusedInLog).toBe(expected.refused);
    } finally {
      await close();
    }
  }, 300_000);
});
