/**
 * The customers of `baton bench serve`, on a worker thread of their own: real customers are other
 * machines, so their HTTP client's CPU is not charged to the server being measured. Each posts one
 * message and long-polls after the cursor the post returned until the agent's (or the system's)
 * answer is readable; the latency is from the post to that read.
 */
import { parentPort, workerData } from 'node:worker_threads';

export interface ClientJob {
  base: string;
  conversations: Array<{ id: string; token: string }>;
  concurrency: number;
}

export interface ClientResult {
  seconds: number;
  latencies: number[];
  handoffs: number;
}

async function run(job: ClientJob): Promise<ClientResult> {
  const latencies: number[] = [];
  let handoffs = 0;
  let next = 0;
  const start = performance.now();
  const one = async (i: number) => {
    const { id, token } = job.conversations[i]!;
    const auth = { authorization: `Bearer ${token}` };
    const t = performance.now();
    const posted = await fetch(`${job.base}/v1/conversations/${id}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': `k${i}` },
      body: JSON.stringify({ text: 'Which plans do you offer?' }),
    });
    if (posted.status !== 201) throw new Error(`post answered ${posted.status}`);
    let { cursor } = (await posted.json()) as { cursor: string };
    for (;;) {
      const res = await fetch(`${job.base}/v1/conversations/${id}/messages?after=${cursor}&waitMs=5000`, { headers: auth });
      const page = (await res.json()) as { messages: Array<{ from: string }>; cursor: string };
      cursor = page.cursor;
      if (page.messages.some((m) => m.from === 'system')) handoffs += 1;
      if (page.messages.some((m) => m.from === 'agent' || m.from === 'system')) break;
    }
    latencies.push(performance.now() - t);
  };
  await Promise.all(
    Array.from({ length: Math.min(job.concurrency, job.conversations.length) }, async () => {
      while (next < job.conversations.length) await one(next++);
    }),
  );
  return { seconds: (performance.now() - start) / 1000, latencies, handoffs };
}

if (parentPort) {
  run(workerData as ClientJob).then(
    (result) => parentPort!.postMessage({ ok: true, result }),
    (error: unknown) => parentPort!.postMessage({ ok: false, error: String(error) }),
  );
}
