import type { CustomerMessage } from '../runtime/service/customer-feed.js';

/**
 * The customer stream (`GET /v1/conversations/:id/stream?after=CURSOR`, a WebSocket): what the
 * web chat is sent. Shared by the server and the chat (which imports the types only).
 *
 * The customer token travels as the second `Sec-WebSocket-Protocol` value, after
 * {@link CUSTOMER_STREAM_PROTOCOL} (which the server picks, so the token is never echoed): never in
 * the URL, which ends up in logs.
 */

/** The subprotocol of the customer stream; the client offers it first, then its token. */
export const CUSTOMER_STREAM_PROTOCOL = 'baton.customer.v1';

/** What the server sends. */
export type CustomerStreamMessage =
  /**
   * First message: the stream is open and reads after `cursor`. A client that never gets it
   * (a proxy that mangles WebSockets) knows the socket does not work and falls back to long-poll.
   */
  | { type: 'ready'; cursor: string }
  /**
   * What the customer may see after the cursor the client gave (exactly what
   * `GET …/messages?after=` answers), in order, each once; `cursor` is where to resume from.
   */
  | { type: 'messages'; messages: CustomerMessage[]; cursor: string }
  /** Something the client sent was refused; the connection stays open. */
  | { type: 'error'; code: string; message: string };

/** Close codes of the customer stream (4000–4999 are the application's). */
export const CUSTOMER_STREAM_CLOSE = {
  /** The client fell too far behind: reconnect and resume from the cursor. */
  tooSlow: 4408,
  /** The server is stopping: reconnect later and resume from the cursor. */
  goingAway: 1001,
} as const;
