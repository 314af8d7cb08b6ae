// One OS process of the multi-process race test: random gateway operations on shared
// conversations, then a JSON report of what the gateway acknowledged, on stdout.
import { seededRandom, type ConversationId, type QueueId, type StaffId } from '../../src/core/index.js';
import { openStore, type StoreConfig } from '../../src/store/open-store.js';
import { gatewayFor, TEST_AGENT } from '../../src/testing/gateway-fixture.js';

const args = JSON.parse(process.argv[2] ?? '{}') as {
  store: StoreConfig;
  conversations: ConversationId[];
  operations: number;
  seed: number;
  worker: number;
};
const store = await openStore(args.store);
const gateway = gatewayFor(store);
const random = seededRandom(args.seed);
const staff = `staff_p${args.worker}` as StaffId;
const queue = 'queue_general' as QueueId;
const acknowledged: Record<string, { inbound: string[]; delivered: string[] }> = {};
const ack = (id: string) => (acknowledged[id] ??= { inbound: [], delivered: [] });
let delivered = 0;
let suppressed = 0;

async function operation(i: number): Promise<void> {
  const id = random.pick(args.conversations);
  const send = async (sender: Parameters<typeof gateway.send>[1], text: string) => {
    const r = await gateway.send(id, sender, text);
    if (r.ok && r.delivered) {
      delivered += 1;
      ack(id).delivered.push(r.message.id);
    } else if (r.ok) suppressed += 1;
  };
  switch (random.int(0, 7)) {
    case 0:
    case 1:
      return send({ type: 'agent', id: TEST_AGENT }, `agent reply from process ${args.worker}`);
    case 2:
      return send({ type: 'human', id: staff }, `human reply from ${staff}`);
    case 3: {
      await gateway.claim(id, staff);
      return;
    }
    case 4: {
      await gateway.handBack(id, { staff, notes: null });
      return;
    }
    case 5: {
      const t = await gateway.transfer(id, {
        agent: TEST_AGENT,
        target: { type: 'queue', id: queue },
        reason: 'customer_request',
        summary: null,
      });
      if (t.ok) await gateway.enqueue(id, queue);
      return;
    }
    default: {
      // Keys shared by all processes for a tenth of messages: cross-process redelivery.
      const key = random.int(0, 9) === 0 ? `shared-${random.int(0, 50)}` : `p${args.worker}-${i}`;
      const r = await gateway.receive(id, { text: `customer message ${key}`, idempotencyKey: key });
      if (r.ok) ack(id).inbound.push(r.message.id);
    }
  }
}

let next = 0;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (next < args.operations) await operation(next++);
  }),
);
await store.close();
process.stdout.write(JSON.stringify({ acknowledged, operations: args.operations, delivered, suppressed }));
