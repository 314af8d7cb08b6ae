import { setTimeout as wait } from 'node:timers/promises';
import type { ConversationId } from '../../core/index.js';
import type { TurnLeases } from '../../store/turn-leases.js';

/** How a process takes a conversation's turn lease (several processes on one database). */
export interface LeaseOptions {
  leases: TurnLeases;
  /** This process's random id. */
  owner: string;
  /** How long a lease lasts unless renewed (ms, default 30 s; renewed every third of it while the turn runs). */
  leaseMs?: number;
  /** How long a turn waits for another process's lease before it fails (ms, default 120 s). */
  waitMs?: number;
}

/** Another process held the conversation's turn for longer than this one would wait. */
export class TurnLeaseTimeout extends Error {
  override readonly name = 'TurnLeaseTimeout';
}

/**
 * Runs `work` holding the conversation's turn lease, so that across every process on the database
 * one turn at a time runs for a conversation. A lease held by another process is waited for, on
 * timers (the loop serves other work meanwhile), up to `waitMs`; a lease left by a process that
 * died expires after `leaseMs`. Times are the wall clock's: a lease is about processes being alive.
 */
export async function withTurnLease<T>(options: LeaseOptions, conversationId: ConversationId, work: () => Promise<T>): Promise<T> {
  const leaseMs = options.leaseMs ?? 30_000;
  const waitMs = options.waitMs ?? 120_000;
  const started = Date.now();
  let delay = 2;
  while (!(await options.leases.acquire(conversationId, options.owner, Date.now(), Date.now() + leaseMs))) {
    if (Date.now() - started > waitMs) {
      throw new TurnLeaseTimeout(`conversation ${conversationId}: another process has held its turn for over ${waitMs} ms`);
    }
    await wait(delay);
    delay = Math.min(delay * 2, 100);
  }
  const renewal = setInterval(() => {
    void options.leases.renew(conversationId, options.owner, Date.now() + leaseMs).catch(() => {});
  }, leaseMs / 3);
  renewal.unref();
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    await options.leases.release(conversationId, options.owner).catch(() => {});
  }
}
