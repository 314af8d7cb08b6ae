import { describe, expect, it } from 'vitest';
import { create } from 'mutative';
import type { DomainTool } from '../src/domains/domain-tool.js';
import { createEpisode, freezeDb } from '../src/domains/episode.js';
import { replayTask } from '../src/domains/replay.js';
import { pythonRound2 } from '../src/domains/tau2/python-math.js';
import { retailToolset, type RetailDb } from '../src/domains/tau2/retail/index.js';
import { canonicalDbHash, createCanonicalHasher, floatPaths } from '../src/domains/tau2/canonical-db.js';
import { pythonJson } from '../src/domains/tau2/python-json.js';
import { goldReplays } from './support/gold-replays.js';
import { tau2Domain } from './support/tau2-domains.js';

// Gold replay through episodes: copy-on-write databases and the cached canonical hasher must give
// the very bytes, records and hashes tau2-bench's Python tools gave (the parity files).

describe.each(['airline', 'retail'] as const)('%s gold replay through episodes', (name) => {
  const gold = goldReplays(name);

  it.each(gold.map((g) => [g.task_id, g] as const))('task %s', async (_id, g) => {
    const domain = await tau2Domain(name);
    const task = domain.tasks.find((t) => t.id === g.task_id);
    if (!task) throw new Error(`no task ${g.task_id}`);
    const result = replayTask(domain, task);
    expect(result.steps.map((s) => ({ output: s.output, error: s.error }))).toEqual(
      g.steps.map((s) => ({ output: s.output, error: s.error })),
    );
    expect(result.db_final_sha256).toBe(g.db_final_sha256);
    // The changed records, checked on a second episode's snapshot.
    const episode = domain.newEpisode();
    for (const action of task.actions ?? []) episode.call(action.name, action.arguments);
    const db = episode.db as Record<string, Record<string, unknown>>;
    const record = (collection: string, key: string, value: unknown) => pythonJson({ [collection]: { [key]: value } }, floatPaths(name));
    for (const [collection, records] of Object.entries(g.db_changes)) {
      for (const [key, change] of Object.entries(records)) {
        if (change.op === 'removed') expect(Object.hasOwn(db[collection] ?? {}, key)).toBe(false);
        else expect(record(collection, key, db[collection]?.[key])).toBe(record(collection, key, change.value));
      }
    }
  });

  it('leaves the initial database as it was, for every later episode', async () => {
    const domain = await tau2Domain(name);
    const initial = gold[0]?.db_initial_sha256;
    for (const task of domain.tasks) replayTask(domain, task);
    expect(domain.newEpisode().hash()).toBe(initial);
    expect(canonicalDbHash(name, domain.initialDb as Record<string, unknown>)).toBe(initial);
  });

  it('gives the same hash as a full canonical dump of the snapshot', async () => {
    const domain = await tau2Domain(name);
    const changing = gold.filter((g) => g.db_final_sha256 !== g.db_initial_sha256).slice(0, 4);
    expect(changing.length).toBe(4);
    for (const g of changing) {
      const episode = domain.newEpisode();
      for (const action of domain.tasks.find((t) => t.id === g.task_id)?.actions ?? []) episode.call(action.name, action.arguments);
      expect(canonicalDbHash(name, episode.db as Record<string, unknown>)).toBe(episode.hash());
      expect(episode.hash()).toBe(g.db_final_sha256);
    }
  });
});

describe('episodes', () => {
  it('keep their writes to themselves and share every record they did not touch', async () => {
    const domain = await tau2Domain('airline');
    const a = domain.newEpisode();
    const b = domain.newEpisode();
    const before = b.hash();
    const reservations = (domain.initialDb as { reservations: Record<string, { status: string | null }> }).reservations;
    const [target, other] = Object.keys(reservations).filter((id) => reservations[id]?.status === null);
    if (!target || !other) throw new Error('the airline data has active reservations');
    const cancelled = a.call('cancel_reservation', { reservation_id: target });
    expect(cancelled.error).toBe(false);
    expect(a.hash()).not.toBe(before);
    expect(b.hash()).toBe(before);
    const dbA = a.db as { reservations: Record<string, { status: string | null }>; flights: object; users: Record<string, object> };
    const dbB = b.db as typeof dbA;
    expect(dbA.reservations[target]?.status).toBe('cancelled');
    expect(dbB.reservations[target]?.status).toBeNull();
    // Structural sharing: untouched collections and records are the very same objects.
    expect(dbA.flights).toBe(dbB.flights);
    expect(dbA.reservations[other]).toBe(dbB.reservations[other]);
    expect(dbA.reservations[target]).not.toBe(dbB.reservations[target]);
    expect(Object.isFrozen(dbA.reservations[target])).toBe(true);
    expect(Object.isFrozen(domain.initialDb)).toBe(true);
  });

  it('keep what a failing write changed before it failed, as upstream does, and report the failure', async () => {
    // An order paid first by a gift card, then by a method its user no longer has: cancelling it
    // credits the gift card, then fails on the second payment; upstream keeps the credit.
    const domain = await tau2Domain('retail');
    const base = domain.initialDb as RetailDb;
    const order = Object.values(base.orders).find(
      (o) => o.status === 'pending' && Object.values(base.users[o.user_id]?.payment_methods ?? {}).some((m) => m.source === 'gift_card'),
    );
    if (!order) throw new Error('the retail data has a pending order whose user has a gift card');
    const card = Object.values(base.users[order.user_id]?.payment_methods ?? {}).find((m) => m.source === 'gift_card');
    if (!card || card.source !== 'gift_card') throw new Error('a gift card');
    const edited = freezeDb(
      create(base, (draft) => {
        const target = draft.orders[order.order_id];
        if (!target) throw new Error('the order');
        target.payment_history = [
          { transaction_type: 'payment', amount: 10, payment_method_id: card.id },
          { transaction_type: 'payment', amount: 5, payment_method_id: 'credit_card_0000000' },
        ];
      }),
    );
    const episode = createEpisode(
      edited,
      retailToolset(),
      createCanonicalHasher(floatPaths('retail'), edited as unknown as Record<string, unknown>),
    );
    const result = episode.call('cancel_pending_order', { order_id: order.order_id, reason: 'no longer needed' });
    expect(result).toEqual({ output: 'Error: Payment method not found', error: true });
    const after = episode.db.users[order.user_id]?.payment_methods[card.id];
    expect(after?.source === 'gift_card' && after.balance).toBe(pythonRound2(card.balance + 10));
    expect(episode.db.orders[order.order_id]?.status).toBe('pending');
    expect(edited.users[order.user_id]?.payment_methods[card.id]).toEqual(card);
  });

  it('report an exception a tool did not expect as an Error output, as any Python exception upstream, and go on', () => {
    const base = freezeDb({ items: { a: { n: 1 } } });
    type Db = typeof base;
    const tools = new Map<string, DomainTool<Db>>([
      [
        'explode',
        {
          name: 'explode',
          kind: 'write',
          description: 'fails with a TypeError',
          params: [],
          run: () => {
            throw new TypeError("unsupported operand type(s) for +: 'int' and 'str'");
          },
        },
      ],
      ['read', { name: 'read', kind: 'read', description: 'reads', params: [], run: (db) => String(db.items.a.n) }],
    ]);
    const episode = createEpisode(base, { className: 'Tools', tools }, () => 'hash');
    expect(episode.call('explode', {})).toEqual({ output: "Error: unsupported operand type(s) for +: 'int' and 'str'", error: true });
    expect(episode.call('read', {})).toEqual({ output: '1', error: false });
  });
});
