/**
 * Per-endpoint concurrency limits. A model server (a vLLM box, an Ollama on a laptop, an OpenAI
 * organisation's rate limit) is one shared resource however many policies talk to it, so the
 * limit belongs to the endpoint, not to the policy object: every policy with the same base URL
 * draws from one semaphore.
 */

/** A counting semaphore with a FIFO queue of waiters. */
export interface EndpointLimiter {
  /** The most requests allowed in flight at once. */
  readonly limit: number;
  /** Requests holding a slot now. */
  readonly inFlight: number;
  /** Requests waiting for a slot now. */
  readonly waiting: number;
  /**
   * Waits for a slot. Resolves to a release function (idempotent), or to `null` when `signal`
   * aborts first; an aborted waiter leaves the queue and takes no slot.
   */
  acquire(signal?: AbortSignal): Promise<(() => void) | null>;
}

/** Limiters by endpoint, so that policies pointing at one endpoint share one limit. */
export interface EndpointLimiters {
  /**
   * The limiter of `endpoint` (a base URL, normalised), created with `limit` on first use. When
   * two callers declare different limits for one endpoint, the lower one holds: the limit protects
   * the endpoint, so the most cautious declaration wins.
   */
  forEndpoint(endpoint: string, limit: number): EndpointLimiter;
}

interface Waiter {
  grant: (release: () => void) => void;
}

class Semaphore implements EndpointLimiter {
  #inFlight = 0;
  readonly #queue: Waiter[] = [];

  constructor(public limit: number) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  acquire(signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return Promise.resolve(null);
    if (this.#inFlight < this.limit) {
      this.#inFlight++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const onAbort = () => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        resolve(null);
      };
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  /** Lowers the limit; slots already held are kept until released. */
  lower(limit: number): void {
    this.limit = Math.min(this.limit, limit);
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight--;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#inFlight < this.limit) {
      const next = this.#queue.shift();
      if (!next) return;
      this.#inFlight++;
      next.grant(this.#releaser());
    }
  }
}

/** A standalone semaphore allowing `limit` holders at once. */
export function createEndpointLimiter(limit: number): EndpointLimiter {
  assertLimit(limit);
  return new Semaphore(limit);
}

/** A fresh registry of per-endpoint limiters (inject one to isolate tests or lab runs). */
export function createEndpointLimiters(): EndpointLimiters {
  const byEndpoint = new Map<string, Semaphore>();
  return {
    forEndpoint(endpoint, limit) {
      assertLimit(limit);
      const key = normaliseEndpoint(endpoint);
      const existing = byEndpoint.get(key);
      if (existing) {
        existing.lower(limit);
        return existing;
      }
      const created = new Semaphore(limit);
      byEndpoint.set(key, created);
      return created;
    },
  };
}

/**
 * The process-wide registry that policies use unless given their own. It is module state on
 * purpose: the endpoint is process-wide too, and two policies built in different places of an
 * app must still share its limit.
 */
export const sharedEndpointLimiters: EndpointLimiters = createEndpointLimiters();

/** `http://Host:80/v1/` and `http://host/v1` are one endpoint. */
function normaliseEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return endpoint.replace(/\/+$/, '');
  }
}

function assertLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency limit must be a positive integer, got ${limit}`);
}
