/**
 * An offer accepted before its hand-off has put the conversation in the queue. The router offers
 * as it places a hand-off, and the gateway enqueues the conversation after; a person quick enough
 * (on another gateway process, in `baton bench cluster`) accepts in between, and the claim, read
 * on the version before the enqueue, lost its compare-and-set to it. That claim used to fail and
 * the router then closed the request: the conversation stayed QUEUED with no offer ever again,
 * the customer waiting for nobody. The claim is now carried out on the current version.
 *
 * And an offer accepted by a process that died before its claim: the router's sweep (any
 * process's) finishes the claim for the person once the accept is older than a grace period.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationId, QueueId, StaffId } from '../src/core/index.js';
import { ACCEPT_CLAIM_GRACE_MS } from '../src/runtime/router/runtime-router.js';
import { handoffPolicy, startTestRuntime, type TestRuntime } from './support/runtime-server.js';

describe('an offer accepted between the router placing a hand-off and the gateway queueing it', () => {
  let t: TestRuntime;
  afterEach(async () => t?.close());

  it('gives the conversation to the person who accepted, and leaves nothing waiting', async () => {
    t = await startTestRuntime('sqlite', { policy: () => handoffPolicy() });
    const person = await t.staff('agent', ['billing']);
    const staff = person.id as StaffId;
    await t.runtime.router.setPresence(staff, 'available');
    const c = await t.open();

    // The person accepts the moment the offer exists; while their claim reads the conversation,
    // the hand-off's enqueue commits (the interleaving two processes produced).
    const { router } = t.runtime;
    const route = router.route.bind(router);
    let accepted: Awaited<ReturnType<typeof router.accept>> | null = null;
    router.route = async (request) => {
      const decision = await route(request);
      const [offer] = await router.offers(staff);
      const read = t.store.getConversation.bind(t.store);
      t.store.getConversation = async (id: ConversationId) => {
        const seen = await read(id);
        t.store.getConversation = read;
        await t.runtime.service.gateway.enqueue(id, decision.queue as QueueId, seen!);
        return seen;
      };
      accepted = await router.accept(offer!.reservation, staff);
      return decision;
    };
    await t.runtime.service.handleCustomerMessage(c.id, { text: 'a person, please', idempotencyKey: 'k1' });

    expect(accepted).toMatchObject({ ok: true, conversation: { state: 'HUMAN_ACTIVE' } });
    expect(await t.store.getConversation(c.id)).toMatchObject({ state: 'HUMAN_ACTIVE', owner: { type: 'human', id: staff } });
    expect((await router.staffState(staff))?.used).toBe(1);
    expect(await router.offers(staff)).toEqual([]);
    const types = (await t.store.listEvents(c.id)).map((e) => e.type);
    expect(types.filter((type) => type === 'conversation.queued' || type === 'conversation.claimed')).toEqual([
      'conversation.queued',
      'conversation.claimed',
    ]);
  });
});

describe('an offer accepted by a process that died before claiming the conversation', () => {
  let t: TestRuntime;
  afterEach(async () => t?.close());

  it("is claimed for the person by the router's sweep, past the grace period, once", async () => {
    let offset = 0;
    t = await startTestRuntime('sqlite', { policy: () => handoffPolicy(), clock: { now: () => Date.now() + offset } });
    const person = await t.staff('agent', ['billing']);
    const staff = person.id as StaffId;
    const { router, service } = t.runtime;
    await router.setPresence(staff, 'available');
    const c = await t.open();
    await service.handleCustomerMessage(c.id, { text: 'a person, please', idempotencyKey: 'k1' });
    const [offer] = await router.offers(staff);
    // The accept commits; the process dies before its claim.
    const claim = service.claim;
    service.claim = () => Promise.reject(new Error('the process was killed'));
    await expect(router.accept(offer!.reservation, staff)).rejects.toThrow('killed');
    service.claim = claim;
    expect(await t.store.getConversation(c.id)).toMatchObject({ state: 'QUEUED' });

    // Within the grace period the accept may still be finishing elsewhere: the sweep leaves it.
    await router.sweep();
    expect(await t.store.getConversation(c.id)).toMatchObject({ state: 'QUEUED' });
    offset += ACCEPT_CLAIM_GRACE_MS + 1;
    await router.sweep();
    expect(await t.store.getConversation(c.id)).toMatchObject({ state: 'HUMAN_ACTIVE', owner: { type: 'human', id: staff } });
    expect((await router.staffState(staff))?.used).toBe(1);
    await router.sweep();
    const types = (await t.store.listEvents(c.id)).map((e) => e.type);
    expect(types.filter((type) => type === 'conversation.claimed')).toHaveLength(1);
  });
});
