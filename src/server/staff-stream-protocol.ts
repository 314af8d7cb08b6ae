import { z } from 'zod';
import { ConversationIdSchema, type Conversation, type QueueId, type StaffRole, type StoredEvent } from '../core/index.js';

/**
 * The messages of the staff stream (`GET /v1/staff/stream`, a WebSocket): what a console sends
 * and what it is sent. Shared by the server and the console (which imports the types only).
 */

const cursor = z.string().regex(/^(0|[1-9]\d{0,15})$/, 'a cursor is the `cursor` of the last batch received, or "0"');

/** What a console sends: follow a conversation's log after a cursor, stop, or follow the queue or the offers made to the caller. */
export const StreamRequestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('follow'), conversation: ConversationIdSchema, after: cursor }),
  z.strictObject({ type: z.literal('unfollow'), conversation: ConversationIdSchema }),
  z.strictObject({ type: z.literal('queue'), follow: z.boolean() }),
  z.strictObject({ type: z.literal('offers'), follow: z.boolean() }),
  /** Supervisors and admins: the agents' actions waiting for approval (`GET /v1/approvals`). */
  z.strictObject({ type: z.literal('approvals'), follow: z.boolean() }),
]);
export type StreamRequest = z.infer<typeof StreamRequestSchema>;

/** A colleague as the console names them ("claimed by …"). */
export interface Colleague {
  id: string;
  name: string;
  email: string;
}

/** One waiting conversation of the queue view: the same item `GET /v1/queue` answers. */
export interface QueueItem {
  id: string;
  version: number;
  state: string;
  queue: string | null;
  reason: string | null;
  intent: unknown;
  priority: string;
  waitedMs: number;
  promisedWaitMs: number | null;
  packet: Record<string, unknown> | null;
}

/** An offer (a reservation) made to the person connected: the item `GET /v1/offers` answers. */
export interface OfferItem {
  id: string;
  conversationId: string;
  queue: string | null;
  offeredAt: string;
  expiresAt: string;
  /** Why a person was asked for (the hand-off's reason), if the log says. */
  reason: string | null;
  intent: unknown;
  /** A warm offer: the person passing the conversation on. */
  from: Colleague | null;
}

/** An agent's action waiting for a supervisor's approval: the item `GET /v1/approvals` answers. */
export interface ApprovalItem {
  conversationId: string;
  agent: string | null;
  /** The call as the agent made it; `arguments` is its JSON text, redacted. */
  call: { id: string; name: string; arguments: string };
  /** Why the call waits (the configured rule). */
  why: string | null;
  requestedAt: string | null;
  /** The customer's last message before the call (redacted), so that the call can be judged in place. */
  customerSaid: string | null;
}

/** What the server sends. */
export type StreamMessage =
  /** First message: who is connected, and the queues (for transfers). */
  | { type: 'hello'; staff: { id: string; name: string; email: string; role: StaffRole }; queues: QueueId[] }
  /** The conversation as it was just before `events` were read (its log may be further on). */
  | { type: 'conversation'; conversation: Conversation }
  /**
   * Log entries after the cursor the console gave, in order, each once; `cursor` is where to
   * resume from. `people` names the staff members the entries mention.
   */
  | { type: 'events'; conversation: string; events: StoredEvent[]; cursor: string; people: Colleague[] }
  /** The queue as it is now (it is a state, not a history: each snapshot is complete). */
  | { type: 'queue'; conversations: QueueItem[] }
  /** The offers waiting for the caller's answer, as they are now (a state: each list is complete). */
  | { type: 'offers'; offers: OfferItem[] }
  /** The actions waiting for a supervisor, as they are now (a state: each list is complete). */
  | { type: 'approvals'; approvals: ApprovalItem[] }
  /** A request refused; the connection stays open. */
  | { type: 'error'; code: string; message: string; conversation?: string };

/** Close codes of the stream (4000–4999 are the application's). */
export const STREAM_CLOSE = {
  /** The session ended (signed out or expired): sign in again. */
  signedOut: 4401,
  /** The console fell too far behind (1 MiB unsent): reconnect and resume from the cursor. */
  tooSlow: 4408,
  /** The server is shutting down: reconnect later. */
  goingAway: 1001,
} as const;
