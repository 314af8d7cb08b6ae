/**
 * The consoles of `baton bench cluster`: staff-stream sockets that each follow up to 20
 * conversations (the stream's limit) from the start of their logs, by cursor, reconnecting to
 * another gateway when theirs dies and following again from the cursors they hold. Each records
 * every log entry it was sent, to be compared with the final log.
 */
import { resilientStream } from './cluster-stream.js';

/** The most conversations one staff-stream connection follows (src/server/staff-stream.ts). */
export const FOLLOWS_PER_CONSOLE = 20;

interface Followed {
  cursor: string;
  seqs: Set<number>;
  duplicates: number;
}

export function startConsoles(options: { bases: readonly string[]; token: string; consoles: number }) {
  const errors: string[] = [];
  const consoles = Array.from({ length: options.consoles }, (_, c) => {
    const follows = new Map<string, Followed>();
    const stream = resilientStream({
      bases: options.bases,
      first: c,
      token: options.token,
      onOpen: (send) => {
        for (const [conversation, f] of follows) send({ type: 'follow', conversation, after: f.cursor });
      },
      onMessage: (message) => {
        if (message.type === 'error') errors.push(String(message['message']));
        if (message.type !== 'events') return;
        const f = follows.get(message['conversation'] as string);
        if (!f) return;
        for (const e of message['events'] as Array<{ seq: number }>) {
          if (f.seqs.has(e.seq)) f.duplicates += 1;
          f.seqs.add(e.seq);
        }
        f.cursor = message['cursor'] as string;
      },
    });
    return { follows, stream };
  });

  return {
    /** Console `c` follows the conversation from its start (false when it follows as many as it may). */
    follow(c: number, conversation: string): boolean {
      const console = consoles[c % consoles.length]!;
      if (console.follows.size >= FOLLOWS_PER_CONSOLE) return false;
      console.follows.set(conversation, { cursor: '0', seqs: new Set(), duplicates: 0 });
      console.stream.send({ type: 'follow', conversation, after: '0' });
      return true;
    },
    capacity: consoles.length * FOLLOWS_PER_CONSOLE,
    /** Each followed conversation: the entries (seqs) its console got, and how many twice. */
    followed(): Array<{ conversation: string; seqs: Set<number>; duplicates: number }> {
      return consoles.flatMap((c) => [...c.follows].map(([conversation, f]) => ({ conversation, seqs: f.seqs, duplicates: f.duplicates })));
    },
    reconnects: () => consoles.reduce((n, c) => n + c.stream.reconnects, 0),
    errors,
    close(): void {
      for (const c of consoles) c.stream.close();
    },
  };
}

export type Consoles = ReturnType<typeof startConsoles>;
