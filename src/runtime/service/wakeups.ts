import type { ConversationId } from '../../core/index.js';

/**
 * In-process wake-ups for readers waiting on a conversation's log (long-poll, live streams): the
 * service calls `notify` after it writes. The log by cursor stays the truth; a wake-up only saves
 * the reader a wait. Writes from other processes are seen by the readers' bounded re-reads.
 *
 * A reader takes `mark` before it reads the log and passes it to `wait`: a write that lands
 * between its read and its wait is not missed, because the mark has moved on by then.
 */
export interface Wakeups {
  notify(conversationId: ConversationId): void;
  /** How many writes the conversation has had here so far (what `wait` compares with). */
  mark(conversationId: ConversationId): number;
  /** Resolves at once if there was a write since `mark`, else on the next one, or after `ms`; `signal` ends the wait early. */
  wait(conversationId: ConversationId, ms: number, mark: number, signal?: AbortSignal): Promise<void>;
  /** Ends every wait now and every later one at once (shutdown: readers answer what they have). */
  close(): void;
  /**
   * Calls `listener` after every write to any conversation (a reader of many, like the staff
   * queue, that cannot name the conversation it waits for); returns the call that stops it.
   */
  listen(listener: (conversationId: ConversationId) => void): () => void;
}

const MAX_MARKS = 100_000;

export function createWakeups(): Wakeups {
  const waiters = new Map<ConversationId, Set<() => void>>();
  // Write counts of the conversations someone reads. Bounded: past the cap they start again, which
  // costs a reader at most one re-read interval, never an event.
  const marks = new Map<ConversationId, number>();
  const listeners = new Set<(conversationId: ConversationId) => void>();
  let closed = false;
  return {
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      closed = true;
      listeners.clear();
      for (const set of waiters.values()) for (const wake of [...set]) wake();
      waiters.clear();
    },
    notify(conversationId) {
      if (marks.has(conversationId)) marks.set(conversationId, marks.get(conversationId)! + 1);
      for (const listener of listeners) listener(conversationId);
      const set = waiters.get(conversationId);
      if (!set) return;
      waiters.delete(conversationId);
      for (const wake of set) wake();
    },
    mark(conversationId) {
      if (marks.size >= MAX_MARKS) marks.clear();
      if (!marks.has(conversationId)) marks.set(conversationId, 0);
      return marks.get(conversationId)!;
    },
    wait(conversationId, ms, mark, signal) {
      if (closed || (marks.get(conversationId) ?? mark) !== mark || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        let set = waiters.get(conversationId);
        if (!set) waiters.set(conversationId, (set = new Set()));
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          set.delete(done);
          if (set.size === 0 && waiters.get(conversationId) === set) waiters.delete(conversationId);
          resolve();
        };
        const timer = setTimeout(done, Math.max(0, ms));
        signal?.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
  };
}
