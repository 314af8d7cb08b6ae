/**
 * A small TypeScript client of the environment server's WebSocket protocol (OpenEnv's `/ws`):
 * one request frame, one answer frame, in order (MCP requests too, in `mcp` frames). Used by
 * `baton bench rewards` to play episodes over loopback; a trainer in TypeScript can use it as it is.
 */
import WebSocket from 'ws';
import type { RpcResponse } from './mcp.js';
import type { EnvResult, EnvState } from './session.js';

export type EnvFrame =
  | { type: 'observation'; data: EnvResult }
  | { type: 'state'; data: EnvState }
  | { type: 'mcp'; data: RpcResponse }
  | { type: 'error'; data: { message: string; code: string; [key: string]: unknown } };

export interface EnvClient {
  reset(data?: { seed?: number; episode_id?: string; task?: string }): Promise<EnvFrame>;
  step(action: unknown): Promise<EnvFrame>;
  state(): Promise<EnvFrame>;
  /** One MCP (JSON-RPC 2.0) request in this session (`tools/list`, `tools/call`, …). */
  mcp(method: string, params?: Record<string, unknown>): Promise<EnvFrame>;
  close(): Promise<void>;
}

/** Connects to `ws://host:port/ws`. */
export async function connectEnv(url: string): Promise<EnvClient> {
  const socket = new WebSocket(url);
  const waiting: ((frame: EnvFrame) => void)[] = [];
  const early: EnvFrame[] = [];
  let rpcIds = 0;
  socket.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString('utf8')) as EnvFrame;
    const next = waiting.shift();
    if (next) next(frame);
    else early.push(frame);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const request = (message: unknown) =>
    new Promise<EnvFrame>((resolve, reject) => {
      socket.send(JSON.stringify(message), (error) => error && reject(error));
      // A frame the server sent unasked (capacity reached, an idle close) answers the next request.
      if (early.length > 0) resolve(early.shift() as EnvFrame);
      else waiting.push(resolve);
    });
  return {
    reset: (data = {}) => request({ type: 'reset', data }),
    step: (action) => request({ type: 'step', data: action }),
    state: () => request({ type: 'state' }),
    mcp: (method, params = {}) => request({ type: 'mcp', data: { jsonrpc: '2.0', id: ++rpcIds, method, params } }),
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
