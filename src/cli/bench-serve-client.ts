/**
 * The customers of `baton bench serve`, on a worker thread of their own: real customers are other
 * machines, so their HTTP client's CPU is not charged to the server being measured. Each posts one
 * message and long-polls after the cursor the post returned until the agent's (or the system's)
 * answer is readable; the latency is from the post to that read. The client is `node:http` with
 * keep-alive connections: on a machine whose cores the server shares, `fetch` cost the customers
 * more CPU (about 1 ms a message) than the server's whole turn, and the figures measured the client.
 */
import { Agent, request } from 'node:http';
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

/** One request on a kept-alive connection; resolves with the status and the parsed JSON body. */
function call(
  agent: Agent,
  base: URL,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function run(job: ClientJob): Promise<ClientResult> {
  const base = new URL(job.base);
  const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency });
  const latencies: number[] = [];
  let handoffs = 0;
  let next = 0;
  const start = performance.now();
  const one = async (i: number) => {
    const { id, token } = job.conversations[i]!;
    const auth = { authorization: `Bearer ${token}` };
    const t = performance.now();
    const posted = await call(
      agent,
      base,
      'POST',
      `/v1/conversations/${id}/messages`,
      { ...auth, 'content-type': 'application/json', 'idempotency-key': `k${i}` },
      JSON.stringify({ text: 'Which plans do you offer?' }),
    );
    if (posted.status !== 201) throw new Error(`post answered ${posted.status}`);
    let { cursor } = posted.body as { cursor: string };
    for (;;) {
      const res = await call(agent, base, 'GET', `/v1/conversations/${id}/messages?after=${cursor}&waitMs=5000`, auth);
      if (res.status !== 200) throw new Error(`read answered ${res.status}`);
      const page = res.body as { messages: Array<{ from: string }>; cursor: string };
      cursor = page.cursor;
      if (page.messages.some((m) => m.from === 'system')) handoffs += 1;
      if (page.messages.some((m) => m.from === 'agent' || m.from === 'system')) break;
    }
    latencies.push(performance.now() - t);
  };
  try {
    await Promise.all(
      Array.from({ length: Math.min(job.concurrency, job.conversations.length) }, async () => {
        while (next < job.conversations.length) await one(next++);
      }),
    );
  } finally {
    agent.destroy();
  }
  return { seconds: (performance.now() - start) / 1000, latencies, handoffs };
}

if (parentPort) {
  run(workerData as ClientJob).then(
    (result) => parentPort!.postMessage({ ok: true, result }),
    (error: unknown) => parentPort!.postMessage({ ok: false, error: String(error) }),
  );
}
