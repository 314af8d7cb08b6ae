/**
 * A staff-stream connection (`/v1/staff/stream`) that survives its gateway: when the socket
 * closes (the process was killed, or drained and said "going away"), it connects to the next
 * gateway and says again what it follows — conversations from their cursors, the offers — so
 * nothing is skipped and nothing needs a sticky session.
 */
import WebSocket from 'ws';

export interface ResilientStreamOptions {
  bases: readonly string[];
  /** The gateway to try first. */
  first: number;
  token: string;
  /** What to send on every (re)connection, after it opens. */
  onOpen: (send: (message: unknown) => void) => void;
  onMessage: (message: { type: string; [key: string]: unknown }) => void;
}

export function resilientStream(options: ResilientStreamOptions) {
  let at = options.first;
  let socket: WebSocket | null = null;
  let closed = false;
  let reconnects = 0;
  let attempts = 0;

  const connect = () => {
    if (closed) return;
    const base = options.bases[at % options.bases.length]!;
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/staff/stream`, { headers: { authorization: `Bearer ${options.token}` } });
    socket = ws;
    ws.on('open', () => {
      attempts = 0;
      options.onOpen((message) => ws.send(JSON.stringify(message)));
    });
    ws.on('message', (data) => options.onMessage(JSON.parse(data.toString()) as { type: string }));
    // A refused connection errors, then closes: the close handler moves on.
    ws.on('error', () => {});
    ws.on('close', () => {
      if (closed || socket !== ws) return;
      reconnects += 1;
      attempts += 1;
      at += 1;
      // A whole round of gateways refused: wait a little before the next round (a restart takes a second or two).
      const delay = attempts % options.bases.length === 0 ? Math.min(100 * attempts, 1000) : 0;
      setTimeout(connect, delay).unref();
    });
  };
  connect();

  return {
    /** Sends now if connected (what must survive a reconnect goes in `onOpen` as well). */
    send(message: unknown): void {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    get reconnects() {
      return reconnects;
    },
    close(): void {
      closed = true;
      socket?.close();
    },
  };
}
