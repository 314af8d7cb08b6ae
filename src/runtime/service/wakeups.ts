import type { ConversationId } from '../../core/index.js';

/**
 * In-process wake-ups for readers waiting on a conversation's log (long-poll, live streams): the
 * service calls `notify` after it writes. The log by cursor stays the truth; a wake-up only saves
 * the reader a wait. Writes from other processes are seen by the readers' bounded re-reads.
 */
export interface Wakeups {
  notify(conversationId: ConversationId): void;
  /** Resolves on the next notify for the conversation, or after `ms`; `signal` ends the wait early. */
  wait(conversationId: ConversationId, ms: number, signal?: AbortSignal): Promise<void>;
}

export function createWakeups(): Wakeups {
  const waiters = new Map<ConversationId, Set<() => void>>();
  return {
    notify(conversationId) {
      const set = waiters.get(conversationId);
      if (!set) return;
      waiters.delete(conversationId);
      for (const wake of set) wake();
    },
    wait(conversationId, ms, signal) {
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
