import type { DeliveryAttempt } from './channel-port.js';

/** The `fetch` a channel sends with (injected: tests point it at local servers; the default is the global one). */
export type Fetch = typeof fetch;

/** Longest one delivery attempt may take before it counts as failed (and is retried). */
export const DELIVERY_TIMEOUT_MS = 15_000;

/**
 * POSTs JSON and classifies the answer: 2xx is delivered (with the parsed body), 408/425/429/5xx
 * and network errors are worth retrying, any other status is refused for good. The reason
 * never quotes request headers (they carry credentials).
 */
export async function postJson(
  fetchFn: Fetch,
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ ok: true; body: unknown } | Extract<DeliveryAttempt, { ok: false }>> {
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
  } catch (error) {
    return { ok: false, retry: true, reason: `could not reach ${new URL(url).host}: ${(error as Error).message}`.slice(0, 400) };
  }
  const text = await response.text().catch(() => '');
  if (response.ok) {
    try {
      return { ok: true, body: text === '' ? null : (JSON.parse(text) as unknown) };
    } catch {
      return { ok: true, body: null };
    }
  }
  const retry = response.status === 408 || response.status === 425 || response.status === 429 || response.status >= 500;
  return { ok: false, retry, reason: `${new URL(url).host} answered ${response.status}: ${text.slice(0, 300)}` };
}
