// One OS process of the multi-router test: a router on the shared PostgreSQL database making
// random routing moves (submit, accept, decline, sweep, complete, presence) on the wall clock,
// then a JSON report, on stdout, of every reservation this process resolved and how.
import { randomBytes } from 'node:crypto';
import { seededRandom, type ConversationId, type StaffId } from '../../src/core/index.js';
import { RoutingQueueSchema } from '../../src/core/router/index.js';
import { openStore, routingStoreFor, type StoreConfig } from '../../src/store/open-store.js';
import type { RoutingFact } from '../../src/store/routing-store.js';

const args = JSON.parse(process.argv[2] ?? '{}') as {
  store: StoreConfig;
  conversations: ConversationId[];
  staff: Array<{ id: StaffId; capacity: number }>;
  operations: number;
  seed: number;
};
const store = await openStore(args.store);
const queue = RoutingQueueSchema.parse({ id: 'queue_billing', skills: [], reservationTimeoutSeconds: 1 });
const routing = routingStoreFor(
  store,
  { queues: new Map([[queue.id, queue]]), weights: { chat: 1, callback: 2 } },
  (kind) => `${kind === 'request' ? 'rq' : 'res'}_${randomBytes(12).toString('hex')}`,
);
const random = seededRandom(args.seed);
const resolved: Array<{ reservation: string; how: string }> = [];
const assigned: ConversationId[] = [];
const seen = (facts: readonly RoutingFact[]) => {
  for (const f of facts) if (f.kind === 'timed_out') resolved.push({ reservation: f.reservation, how: 'timed_out' });
};
let next = 0;
for (let i = 0; i < args.operations; i += 1) {
  const person = random.pick(args.staff);
  switch (random.int(0, 9)) {
    case 0:
    case 1:
      if (next < args.conversations.length) {
        const target = { type: 'queue' as const, queue: queue.id, timeoutSeconds: 3600 };
        seen(
          (
            await routing.submit(
              args.conversations[next++]!,
              { skills: [], channel: 'chat', priority: random.int(0, 2), safety: false, targets: [target] },
              Date.now(),
            )
          ).facts,
        );
      }
      break;
    case 2:
    case 3:
    case 4: {
      const offer = (await routing.offersFor(person.id))[0];
      if (!offer) break;
      const accepted = await routing.accept(offer.reservation, person.id, Date.now());
      seen(accepted.facts);
      if (accepted.ok) {
        resolved.push({ reservation: offer.reservation, how: 'accepted' });
        assigned.push(accepted.conversationId);
      }
      break;
    }
    case 5: {
      const offer = (await routing.offersFor(person.id))[0];
      if (!offer) break;
      const declined = await routing.decline(offer.reservation, person.id, 'busy', Date.now());
      seen(declined.facts);
      if (declined.ok) resolved.push({ reservation: offer.reservation, how: 'declined' });
      break;
    }
    case 6:
      // Half the sweeps run on a clock a second ahead, so that offers do lapse however fast the machine answers.
      seen(await routing.sweep(Date.now() + (random.int(0, 1) === 1 ? 1000 : 0)));
      break;
    case 7:
    case 8:
      if (assigned.length > 0) seen(await routing.complete(assigned.splice(random.int(0, assigned.length - 1), 1)[0]!, Date.now()));
      break;
    case 9:
      seen(
        await routing.setPresence(
          { staff: person.id, skills: [], capacity: person.capacity, presence: random.pick(['available', 'available', 'away'] as const) },
          Date.now(),
        ),
      );
      break;
  }
}
await store.close();
process.stdout.write(JSON.stringify({ resolved, submitted: next }));
