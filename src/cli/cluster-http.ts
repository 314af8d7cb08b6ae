/**
 * The load balancer of `baton bench cluster`, as its clients see one: requests spread round-robin
 * over the gateways, and a request that finds its gateway dead (connection refused or reset, a 503
 * while it drains, no answer) is sent to the next one — the same request, so a message post keeps
 * its idempotency key. No sticky sessions: any gateway serves any conversation.
 */
import { setTimeout as wait } from 'node:timers/promises';

/** The gateways did not answer for longer than a client waits. */
export class GatewaysUnavailable extends Error {
  override readonly name = 'GatewaysUnavailable';
}

/** A JSON answer: its status and body. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  /** The gateway that answered. */
  base: string;
}

export interface BalancerOptions {
  bases: readonly string[];
  /** How long one request may take (a long-poll adds its wait); ms. */
  requestTimeoutMs?: number;
  /** How long a client keeps trying while no gateway answers; ms. */
  giveUpMs?: number;
}

/** Statuses that say "this gateway cannot serve now, another may": a draining or starting process, a busy store. */
const RETRYABLE = new Set([502, 503, 504]);

export function createBalancer(options: BalancerOptions) {
  const { bases } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  const giveUpMs = options.giveUpMs ?? 120_000;
  let next = 0;
  let failovers = 0;

  /** One gateway's index, round-robin. */
  const pick = () => next++ % bases.length;

  /**
   * Sends the request to a gateway (from `prefer`, else round-robin), and to the next on a
   * connection failure or a retryable status, until one answers or `giveUpMs` passes.
   */
  async function request<T>(
    path: string,
    init: {
      method?: string;
      headers?: Record<string, string>;
      body?: unknown;
      waitMs?: number;
      /**
       * false: the request must not be sent twice (a staff reply): it goes to another gateway only
       * when the first refused the connection (nothing was sent); an answer lost after sending is
       * status 0, and the caller finds out from the log what happened.
       */
      idempotent?: boolean;
    } = {},
    prefer?: number,
  ): Promise<Answer<T>> {
    const started = Date.now();
    let at = prefer ?? pick();
    let attempt = 0;
    let lastError = '';
    for (;;) {
      const base = bases[at % bases.length]!;
      try {
        const res = await fetch(`${base}${path}`, {
          method: init.method ?? 'GET',
          headers: { ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...init.headers },
          ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
          signal: AbortSignal.timeout(requestTimeoutMs + (init.waitMs ?? 0)),
        });
        const text = await res.text();
        if (!RETRYABLE.has(res.status)) return { status: res.status, body: (text ? JSON.parse(text) : null) as T, base };
        lastError = `${res.status} ${text.slice(0, 200)}`;
      } catch (error) {
        lastError = String((error as Error).cause ?? error);
        const refused = /ECONNREFUSED/.test(lastError);
        if (init.idempotent === false && !refused) return { status: 0, body: null as T, base };
      }
      failovers += 1;
      attempt += 1;
      if (Date.now() - started > giveUpMs)
        throw new GatewaysUnavailable(`no gateway answered ${init.method ?? 'GET'} ${path} for ${giveUpMs} ms: ${lastError}`);
      at += 1;
      // After a full round of dead gateways, back off a little before the next round.
      if (attempt % bases.length === 0) await wait(Math.min(50 * attempt, 500));
    }
  }

  return {
    request,
    pick,
    bases,
    /** Requests sent again to another gateway so far. */
    get failovers() {
      return failovers;
    },
  };
}

export type Balancer = ReturnType<typeof createBalancer>;
