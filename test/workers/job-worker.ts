// An OS process running the job queue, for test/jobs-processes.test.ts. It records every effect in
// the database (test/support/job-harness.ts). With `crash`, its `test.crash` handler stops for good
// before (`before`) or after (`after`) committing its effect, so that the test can SIGKILL it there.
import { createInterface } from 'node:readline';
import { openHarness, type Where } from '../support/job-harness.js';

const args = JSON.parse(process.argv[2] ?? '{}') as {
  where: Where;
  crash: 'before' | 'after' | null;
  leaseMs: number;
  pollIntervalMs: number;
  concurrency: number;
};
const say = (line: string) => process.stdout.write(`${line}\n`);
const forever = () => new Promise<never>(() => {});

const h = await openHarness(args.where, {
  leaseMs: args.leaseMs,
  pollIntervalMs: args.pollIntervalMs,
  concurrency: args.concurrency,
  onEvent: (event) => {
    if (event.type === 'queue.error') process.stderr.write(`${event.error}\n`);
  },
});
await h.start({
  'test.tick': (_job, t) => t.effect(),
  'test.crash': async (job, t) => {
    await t.note('start');
    if (args.crash === 'before') {
      say(`hanging ${job.key}`);
      return forever();
    }
    await t.effect();
    if (args.crash === 'after') {
      say(`hanging ${job.key}`);
      return forever();
    }
  },
});
say('ready');
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'stop') break;
}
await h.close();
say('stopped');
process.exit(0);
