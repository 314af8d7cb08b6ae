import pg from 'pg';
import { setTimeout as wait } from 'node:timers/promises';

/** The channel every append to a conversation's log is announced on (migration 8's trigger). */
export const EVENTS_CHANNEL = 'baton_events';

/** A listener of the database's write announcements; close it before the store. */
export interface WriteListener {
  close(): Promise<void>;
}

/**
 * Listens for the conversations other processes write to (PostgreSQL `LISTEN`, fed by a trigger
 * on the events table): a wake-up for this process's waiting readers — long-polls, the consoles'
 * streams. The log by cursor stays the truth: a notification missed while the connection was down
 * costs latency (the readers' own timeouts and re-reads catch up), never an event. The connection
 * is re-opened after an error, with back-off.
 */
export async function listenToWrites(
  config: pg.ClientConfig,
  onWrite: (conversationId: string) => void,
  onError: (error: unknown) => void = () => {},
): Promise<WriteListener> {
  let closed = false;
  let client: pg.Client | null = null;
  const connect = async (): Promise<void> => {
    const c = new pg.Client(config);
    c.on('notification', (n) => {
      if (n.channel === EVENTS_CHANNEL && n.payload) onWrite(n.payload);
    });
    c.on('error', (error) => {
      onError(error);
      void reconnect(c);
    });
    await c.connect();
    await c.query(`LISTEN ${EVENTS_CHANNEL}`);
    client = c;
  };
  const reconnect = async (broken: pg.Client) => {
    if (closed || client !== broken) return;
    client = null;
    await broken.end().catch(() => {});
    for (let delay = 100; !closed; delay = Math.min(delay * 2, 5_000)) {
      try {
        await connect();
        return;
      } catch (error) {
        onError(error);
        await wait(delay);
      }
    }
  };
  await connect();
  return {
    async close() {
      closed = true;
      await client?.end().catch(() => {});
      client = null;
    },
  };
}
