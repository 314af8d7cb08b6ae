/**
 * After a crash, a new process answers what was left unanswered and finishes a hand-off caught
 * between its ownership change and its queue placement; it never resumes the agent's plan after
 * a hand-off (the ownership change is the checkpoint).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentId, Policy, PolicyRequest, QueueId } from '../src/core/index.js';
import { openStore } from '../src/store/open-store.js';
import { scriptedPolicy } from '../src/testing/scripted-policy.js';
import { startTestRuntime } from './support/runtime-server.js';

describe('recovery after a crash', () => {
  it('answers a message stored before the crash, and finishes a hand-off left pending without asking the agent again', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'baton-recover-')), 'baton.sqlite');
    // The first process: a message is stored, then the process dies before any turn runs; another
    // conversation's hand-off got as far as its ownership change (HANDOFF_PENDING).
    const first = await openStore({ kind: 'sqlite', path });
    const crashed = await startTestRuntime('sqlite', { store: first, policy: () => scriptedPolicy([]) });
    const unanswered = await crashed.open();
    await crashed.runtime.service.gateway.receive(unanswered.id, { text: 'Which plans do you offer?', idempotencyKey: 'k1' });
    const pending = await crashed.open();
    await crashed.runtime.service.gateway.receive(pending.id, { text: 'a person please', idempotencyKey: 'k1' });
    const moved = await crashed.runtime.service.gateway.transfer(pending.id, {
      agent: 'agent_support' as AgentId,
      target: { type: 'queue', id: 'queue_billing' as QueueId },
      reason: 'customer_request',
      summary: 'wants a person',
    });
    expect(moved).toMatchObject({ ok: true, conversation: { state: 'HANDOFF_PENDING' } });
    await crashed.close();

    // The next process, on the same file.
    const asked: PolicyRequest[] = [];
    const answering: Policy = {
      name: 'after restart',
      next: (r) => (asked.push(r), scriptedPolicy([{ reply: 'We offer three plans.' }]).next(r)),
    };
    const next = await startTestRuntime('sqlite', { store: await openStore({ kind: 'sqlite', path }), policy: () => answering });
    try {
      expect(await next.runtime.service.recover()).toEqual({ turns: 1, handoffs: 1 });
      await next.runtime.service.idle();
      const a = (await next.store.listEvents(unanswered.id)).flatMap((e) => (e.type === 'message.sent' ? [e.data.message.text] : []));
      expect(a).toEqual(['We offer three plans.']);
      const p = await next.store.getConversation(pending.id);
      expect(p).toMatchObject({ state: 'QUEUED', owner: { type: 'queue', id: 'queue_billing' } });
      const log = await next.store.listEvents(pending.id);
      // The packet the crash kept from being stored is built from the log, before the queue placement.
      const kinds = log.map((e) => e.type);
      expect(kinds.indexOf('packet.built')).toBeGreaterThan(kinds.indexOf('handoff.requested'));
      expect(kinds.indexOf('packet.built')).toBeLessThan(kinds.indexOf('conversation.queued'));
      const notice = log.filter((e) => e.type === 'message.sent');
      expect(notice.map((e) => e.type === 'message.sent' && e.data.message.sender.type)).toEqual(['system']);
      // The agent was asked once, for the unanswered message; never for the conversation it had handed off.
      expect(asked).toHaveLength(1);
      expect(asked[0]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Which plans do you offer?' });
      // Nothing is left to recover.
      expect(await next.runtime.service.recover()).toEqual({ turns: 0, handoffs: 0 });
    } finally {
      await next.close();
    }
  });
});
