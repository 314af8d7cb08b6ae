import WebSocket from 'ws';

/** One frame from the environment server. */
export type Frame = {
  type: string;
  data: Record<string, unknown> & { observation?: Record<string, unknown>; reward?: number | null; done?: boolean };
};

/** A WebSocket client that answers each request frame with the next frame the server sends. */
export async function connect(url: string) {
  const socket = new WebSocket(url);
  const inbox: Frame[] = [];
  const waiting: ((f: Frame) => void)[] = [];
  socket.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString('utf8')) as Frame;
    const next = waiting.shift();
    if (next) next(frame);
    else inbox.push(frame);
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const receive = () => new Promise<Frame>((resolve) => (inbox.length > 0 ? resolve(inbox.shift() as Frame) : waiting.push(resolve)));
  return {
    send: (message: unknown) => {
      socket.send(typeof message === 'string' ? message : JSON.stringify(message));
      return receive();
    },
    receive,
    closed,
    close: () => socket.close(),
  };
}
