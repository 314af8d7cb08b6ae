import type { ConversationId } from '../core/index.js';
import { run, type SqlRunner } from './routing-sql.js';

/**
 * Who runs a conversation's agent turn right now, across every process on one database: a lease
 * per conversation with an owner and an expiry (epoch ms). A process takes the lease before a
 * turn and gives it back after; one that dies leaves a lease that expires, so another process can
 * take over. Two processes never hold one conversation's lease at once.
 */
export interface TurnLeases {
  /** Takes the lease if it is free, expired, or already `owner`'s; true if `owner` holds it now, until `until`. */
  acquire(conversationId: ConversationId, owner: string, now: number, until: number): Promise<boolean>;
  /** Extends `owner`'s lease; false if they no longer hold it. */
  renew(conversationId: ConversationId, owner: string, until: number): Promise<boolean>;
  /** Gives `owner`'s lease back (nothing if they do not hold it). */
  release(conversationId: ConversationId, owner: string): Promise<void>;
}

/** Leases in the `turn_leases` table of the store's database (SQLite or PostgreSQL, the same SQL). */
export function sqlTurnLeases(sql: SqlRunner): TurnLeases {
  return {
    acquire: (conversationId, owner, now, until) =>
      sql.transaction(function* () {
        const changed = (yield run(
          `INSERT INTO turn_leases (conversation_id, owner, until) VALUES (?, ?, ?)
           ON CONFLICT (conversation_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
           WHERE turn_leases.until <= ? OR turn_leases.owner = excluded.owner`,
          conversationId,
          owner,
          until,
          now,
        )) as number;
        return changed === 1;
      }),
    renew: (conversationId, owner, until) =>
      sql.transaction(function* () {
        return (
          ((yield run(
            'UPDATE turn_leases SET until = ? WHERE conversation_id = ? AND owner = ?',
            until,
            conversationId,
            owner,
          )) as number) === 1
        );
      }),
    release: (conversationId, owner) =>
      sql.transaction(function* () {
        yield run('DELETE FROM turn_leases WHERE conversation_id = ? AND owner = ?', conversationId, owner);
      }),
  };
}

/** One process, no database: every lease is granted (the scheduler already runs a conversation's turns one at a time). */
export const localTurnLeases: TurnLeases = {
  acquire: async () => true,
  renew: async () => true,
  release: async () => {},
};
