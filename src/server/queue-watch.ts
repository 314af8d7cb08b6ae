import type { Store } from '../store/store.js';
import type { Wakeups } from '../runtime/service/wakeups.js';

/** One watcher of the waiting conversations for a whole process, however many consoles follow the queue. */
export interface QueueWatch {
  /** Calls `listener` whenever a conversation enters, leaves or changes in the waiting set; returns the call that stops it. */
  subscribe(listener: () => void): () => void;
  close(): void;
}

const WAITING = ['HANDOFF_PENDING', 'QUEUED'] as const;

/**
 * Watches the set of waiting conversations (id and version of each). A write in this process
 * (a wake-up) makes it look at once; a re-read every `rereadMs` catches writes from other
 * processes. A missed wake-up costs latency, never a change: the store is read, not the hint.
 * Looks are coalesced: one store read at a time, and one more if anything was written meanwhile.
 */
export function createQueueWatch(deps: { store: Store; wakeups: Wakeups; rereadMs: number }): QueueWatch {
  const listeners = new Set<() => void>();
  let signature: string | null = null;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;

  async function look(): Promise<void> {
    if (listeners.size === 0) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        let waiting;
        try {
          waiting = await deps.store.listConversations({ states: WAITING, limit: 1000 });
        } catch {
          // A busy or closing store: the next wake-up or re-read looks again.
          return;
        }
        const next = waiting.map((c) => `${c.id}:${c.version}`).join(',');
        if (next !== signature) {
          signature = next;
          for (const listener of [...listeners]) listener();
        }
      } while (again);
    } finally {
      running = false;
    }
  }

  const stopListening = deps.wakeups.listen(() => void look());
  return {
    subscribe(listener) {
      listeners.add(listener);
      timer ??= setInterval(() => void look(), deps.rereadMs).unref();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
          signature = null;
        }
      };
    },
    close() {
      stopListening();
      listeners.clear();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
