import type { ConversationId, EventType, StoredEvent } from '../../core/index.js';
import type { Store } from '../../store/store.js';
import type { Wakeups } from './wakeups.js';

/** One message as the customer sees it. */
export interface CustomerMessage {
  id: string;
  from: 'customer' | 'agent' | 'human' | 'system';
  text: string;
  at: string;
}

/** A page of what the customer may see, and the cursor to ask from next time. */
export interface CustomerPage {
  messages: CustomerMessage[];
  cursor: string;
}

/** Log entries a customer sees: their messages and what was delivered to them. Never internal events. */
export const CUSTOMER_EVENT_TYPES: readonly EventType[] = ['message.received', 'message.sent'];

/** A cursor is the log position of the last entry read, as text: `0` reads from the start. */
export const parseCursor = (cursor: string | undefined): number | null => {
  if (cursor === undefined || cursor === '') return 0;
  return /^(0|[1-9]\d{0,15})$/.test(cursor) ? Number(cursor) : null;
};

function toCustomerMessage(event: StoredEvent): CustomerMessage | null {
  if (event.type !== 'message.received' && event.type !== 'message.sent') return null;
  const { message } = event.data;
  return { id: message.id, from: message.sender.type, text: message.text, at: message.at };
}

/** Largest number of re-reads of the log while a long-poll waits (other processes' writes). */
const REREAD_MS = 500;

/**
 * What the customer may see after `after`, at most `limit` messages; when there is nothing yet,
 * waits up to `waitMs` for something (woken by this process's writes, re-reading the log for
 * other processes'). The cursor moves past what was read, so a client that reconnects with its
 * last cursor misses nothing and sees nothing twice.
 */
export async function readCustomerFeed(
  deps: { store: Store; wakeups: Wakeups; closing?: () => boolean },
  conversationId: ConversationId,
  input: { after: number; limit: number; waitMs: number; signal?: AbortSignal },
): Promise<CustomerPage> {
  const deadline = Date.now() + Math.max(0, input.waitMs);
  for (;;) {
    const mark = deps.wakeups.mark(conversationId);
    const events = await deps.store.listEvents(conversationId, { afterSeq: input.after, limit: input.limit, types: CUSTOMER_EVENT_TYPES });
    const last = events.at(-1);
    const left = deadline - Date.now();
    if (last || left <= 0 || input.signal?.aborted || deps.closing?.()) {
      return { messages: events.flatMap((e) => toCustomerMessage(e) ?? []), cursor: String(last?.seq ?? input.after) };
    }
    await deps.wakeups.wait(conversationId, Math.min(left, REREAD_MS), mark, input.signal);
  }
}
