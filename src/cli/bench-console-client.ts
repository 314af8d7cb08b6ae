/**
 * The consoles of `baton bench console`, on a worker thread of their own (real consoles are other
 * machines): `consoles` WebSockets that each record when every one of `count` events arrived.
 * `stream` follows a conversation on the staff stream from a cursor; `raw` takes whatever a bare
 * WebSocket server broadcasts (`{"seq": n}` plus padding).
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

export interface ConsoleClientJob {
  mode: 'stream' | 'raw';
  url: string;
  headers: Record<string, string>;
  consoles: number;
  count: number;
  /** stream: the conversation followed and the cursor after which its `count` events come. */
  conversation?: string;
  after: number;
}

/** `ready` once every console is connected (and following); `done` with arrival times, `consoles × count`, in ms since the epoch. */
export type ConsoleClientMessage = { type: 'ready' } | { type: 'done'; arrivals: Float64Array; duplicates: number };

const now = () => performance.timeOrigin + performance.now();

async function run(job: ConsoleClientJob): Promise<void> {
  const arrivals = new Float64Array(job.consoles * job.count).fill(Number.NaN);
  let duplicates = 0;
  let finished = 0;
  let ready = 0;
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const sockets: WebSocket[] = [];
  for (let c = 0; c < job.consoles; c += 1) {
    const socket = new WebSocket(job.url, { headers: job.headers });
    sockets.push(socket);
    let got = 0;
    const record = (seq: number) => {
      const i = seq - job.after - 1;
      if (i < 0 || i >= job.count) return;
      const at = c * job.count + i;
      if (!Number.isNaN(arrivals[at]!)) {
        duplicates += 1;
        return;
      }
      arrivals[at] = now();
      got += 1;
      if (got === job.count && ++finished === job.consoles) resolveDone();
    };
    socket.on('message', (data) => {
      const t = now();
      const message = JSON.parse(data.toString()) as { type?: string; seq?: number; events?: Array<{ seq: number }> };
      if (job.mode === 'raw') return void (message.seq !== undefined && record(message.seq));
      if (message.type === 'conversation' && ++ready === job.consoles)
        parentPort!.postMessage({ type: 'ready' } satisfies ConsoleClientMessage);
      if (message.type === 'events') for (const e of message.events!) record(e.seq);
      void t;
    });
    socket.on('open', () => {
      if (job.mode === 'stream') socket.send(JSON.stringify({ type: 'follow', conversation: job.conversation, after: String(job.after) }));
      else if (++ready === job.consoles) parentPort!.postMessage({ type: 'ready' } satisfies ConsoleClientMessage);
    });
    socket.on('error', (error) => {
      throw error;
    });
  }
  await done;
  for (const s of sockets) s.close();
  parentPort!.postMessage({ type: 'done', arrivals, duplicates } satisfies ConsoleClientMessage, [arrivals.buffer]);
}

void run(workerData as ConsoleClientJob);
