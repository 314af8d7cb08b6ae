// The writer process of the crash test: opens the store, then writes forever, printing one line
// per acknowledged write (`in <conversation> <message>` stored, `out <conversation> <message>`
// delivered) until the test kills it with SIGKILL.
import { writeSync } from 'node:fs';
import { seededRandom, type ConversationId, type QueueId, type StaffId } from '../../src/core/index.js';
import { openStore, type StoreConfig } from '../../src/store/open-store.js';
import { gatewayFor, TEST_AGENT } from '../../src/testing/gateway-fixture.js';

const args = JSON.parse(process.argv[2] ?? '{}') as { store: StoreConfig; seed: number; conversations: number };
const store = await openStore(args.store);
const gateway = gatewayFor(store);
const random = seededRandom(args.seed);
const ids: ConversationId[] = await store.listConversationIds();
const staff = `staff_${random.int(1, 3)}` as StaffId;
const queue = 'queue_general' as QueueId;
const ack = (line: string) => writeSync(1, `${line}\n`);
writeSync(1, 'ready\n');

for (let i = 0; ; i += 1) {
  if (ids.length < args.conversations) {
    ids.push((await gateway.open()).id);
    continue;
  }
  const id = random.pick(ids);
  switch (random.int(0, 6)) {
    case 0: {
      const r = await gateway.send(id, { type: 'agent', id: TEST_AGENT }, 'agent reply');
      if (r.ok && r.delivered) ack(`out ${id} ${r.message.id}`);
      break;
    }
    case 1: {
      const r = await gateway.send(id, { type: 'human', id: staff }, 'human reply');
      if (r.ok && r.delivered) ack(`out ${id} ${r.message.id}`);
      break;
    }
    case 2:
      await gateway.claim(id, staff);
      break;
    case 3:
      await gateway.handBack(id, { staff, notes: null });
      break;
    case 4: {
      const t = await gateway.transfer(id, {
        agent: TEST_AGENT,
        target: { type: 'queue', id: queue },
        reason: 'customer_request',
        summary: null,
      });
      if (t.ok) await gateway.enqueue(id, queue);
      break;
    }
    default: {
      const r = await gateway.receive(id, { text: `message ${args.seed}-${i}`, idempotencyKey: `${args.seed}-${i}` });
      if (r.ok) ack(`in ${id} ${r.message.id}`);
    }
  }
}
