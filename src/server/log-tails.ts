import type { ConversationId, StoredEvent } from '../core/index.js';
import type { Wakeups } from '../runtime/service/wakeups.js';
import type { Store } from '../store/store.js';

/** One reader of a conversation's log: where it is, and how it is handed what comes after. */
export interface TailReader {
  /** The log position of the last entry this reader has; it only moves forward. */
  cursor: number;
  /** Entries after the cursor, in order (`json` is their array, serialised); the cursor has moved to the last. */
  deliver(events: readonly StoredEvent[], json: string): void;
  /** The wake-ups are closed (the server is stopping): nothing more will come. */
  stopping(): void;
}

/** Followers of conversations' logs, one reader loop per followed conversation however many follow it. */
export interface LogTails {
  /** Starts handing `reader` the entries after its cursor; returns the call that stops it. */
  follow(conversationId: ConversationId, reader: TailReader): () => void;
}

/**
 * One loop per followed conversation reads its log after the lowest cursor of its readers and
 * hands each reader the entries after its own cursor, serialised once for all readers at the same
 * cursor; then it waits for a wake-up (a write in this process) or `rereadMs` (writes by other
 * processes) and reads again. The log is the truth: a lost wake-up costs latency, never an entry.
 * A reader that joins behind the others is caught up from its own cursor by the same loop.
 */
export function createLogTails(deps: { store: Store; wakeups: Wakeups; rereadMs: number; batch: number }): LogTails {
  /** A followed conversation: its readers, the wait to cut short, and whether a reader joined since the last read. */
  type Tail = { readers: Set<TailReader>; poke: AbortController | null; joined: boolean };
  const tails = new Map<ConversationId, Tail>();

  async function run(id: ConversationId, tail: Tail): Promise<void> {
    while (tail.readers.size > 0) {
      const mark = deps.wakeups.mark(id);
      tail.joined = false;
      const from = Math.min(...[...tail.readers].map((r) => r.cursor));
      let events: StoredEvent[] = [];
      try {
        events = await deps.store.listEvents(id, { afterSeq: from, limit: deps.batch });
      } catch {
        // A busy store: the next wake-up or re-read tries again.
      }
      const last = events.at(-1);
      if (last) {
        const sliced = new Map<number, { events: StoredEvent[]; json: string }>();
        for (const reader of [...tail.readers]) {
          // A reader that joined behind `from` is served from its own cursor on the next read.
          if (!tail.readers.has(reader) || reader.cursor < from || reader.cursor >= last.seq) continue;
          let slice = sliced.get(reader.cursor);
          if (!slice) {
            const mine = reader.cursor === from ? events : events.filter((e) => e.seq > reader.cursor);
            sliced.set(reader.cursor, (slice = { events: mine, json: JSON.stringify(mine) }));
          }
          reader.cursor = last.seq;
          reader.deliver(slice.events, slice.json);
        }
        continue;
      }
      // A reader joined during the read: read again for it rather than wait.
      if (tail.joined) continue;
      const poke = new AbortController();
      tail.poke = poke;
      const started = Date.now();
      await deps.wakeups.wait(id, deps.rereadMs, mark, poke.signal);
      tail.poke = null;
      // Woken at once with nothing written and nobody poking: the wake-ups are closed.
      if (!poke.signal.aborted && deps.wakeups.mark(id) === mark && Date.now() - started < deps.rereadMs / 2) {
        for (const reader of tail.readers) reader.stopping();
        tail.readers.clear();
      }
    }
    if (tails.get(id) === tail) tails.delete(id);
  }

  return {
    follow(id, reader) {
      let tail = tails.get(id);
      if (!tail) {
        tails.set(id, (tail = { readers: new Set(), poke: null, joined: false }));
        tail.readers.add(reader);
        void run(id, tail);
      } else {
        tail.readers.add(reader);
        // The loop may be reading or waiting: make it read (again) now for the newcomer.
        tail.joined = true;
        tail.poke?.abort();
      }
      const joined = tail;
      return () => {
        joined.readers.delete(reader);
        if (joined.readers.size === 0) joined.poke?.abort();
      };
    },
  };
}
