/**
 * One OS process of the multi-process race suite (`process-race.ts`): it reads operations on
 * shared conversations as JSON lines on stdin, runs them through its own gateway over the shared
 * store, many at once, and writes what the gateway acknowledged as JSON lines on stdout — a
 * message stored (`in`), a message delivered (`out`), and each operation's end (`done`). Only a
 * complete line counts: a line cut by a kill was never acknowledged. `{"end": true}` closes it.
 */
import { createInterface } from 'node:readline';
import type { ConversationId, QueueId, StaffId } from '../core/index.js';
import { openStore, type StoreConfig } from '../store/open-store.js';
import { gatewayFor, TEST_AGENT } from './gateway-fixture.js';
import type { RaceOperation } from './process-race.js';

const store = await openStore(JSON.parse(process.argv[2] ?? '{}') as StoreConfig);
/** A planted fault, to show that the audit catches it: acknowledge a customer message that was never stored. */
const fault = process.argv[3] === 'phantom_ack' ? 'phantom_ack' : null;
const gateway = gatewayFor(store);
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);
const agent = { type: 'agent', id: TEST_AGENT } as const;

async function run(op: RaceOperation): Promise<void> {
  for (let i = 0; i < op.yields; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
  const id = op.conversation as ConversationId;
  const staff = op.staff as StaffId;
  const queue = 'queue_general' as QueueId;
  const sent = async (r: Awaited<ReturnType<typeof gateway.send>>) => {
    if (r.ok && r.delivered) say({ op: op.id, out: r.message.id });
  };
  switch (op.kind) {
    case 'customer': {
      const r = await gateway.receive(id, { text: `customer message ${op.key}`, idempotencyKey: op.key });
      if (r.ok) say({ op: op.id, in: r.message.id });
      if (fault === 'phantom_ack' && op.id % 10 === 0) say({ op: op.id, in: `msg_phantom_${op.id}` });
      break;
    }
    case 'agent_reply':
      await sent(await gateway.send(id, agent, `agent reply (op ${op.id})`));
      break;
    case 'human_reply':
      await sent(await gateway.send(id, { type: 'human', id: staff }, `reply from ${staff} (op ${op.id})`));
      break;
    case 'claim':
      await gateway.claim(id, staff);
      break;
    case 'claim_stale': {
      // A console claims with the copy it displayed a moment ago, which others may have made stale.
      const seen = await store.getConversation(id);
      for (let i = 0; i < op.yields; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
      if (seen) await gateway.claim(id, staff, seen);
      break;
    }
    case 'hand_back':
      await gateway.handBack(id, { staff, notes: `back from ${staff}`, constraints: [] });
      break;
    case 'handoff': {
      const t = await gateway.transfer(id, {
        agent: TEST_AGENT,
        target: { type: 'queue', id: queue },
        reason: 'customer_request',
        summary: null,
      });
      if (t.ok) await gateway.enqueue(id, queue);
      break;
    }
  }
  say({ op: op.id, done: true });
}

const running = new Set<Promise<void>>();
let failed = false;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const message = JSON.parse(line) as RaceOperation | { end: true };
  if ('end' in message) break;
  const p = run(message).catch((error: unknown) => {
    failed = true;
    process.stderr.write(`operation ${message.id} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  });
  running.add(p);
  void p.finally(() => running.delete(p));
}
await Promise.all(running);
await store.close();
process.exitCode = failed ? 1 : 0;
