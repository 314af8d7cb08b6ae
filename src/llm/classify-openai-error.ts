/**
 * What a failed attempt means: which `PolicyFailure` it is, and whether trying again can help.
 * Rate limits, server errors, dropped connections and timeouts are transient; any other 4xx says
 * the request itself is wrong, and sending it again would only spend quota.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { PolicyFailure } from '../core/policy.js';
import type { HeaderSource } from './retry-delay.js';

/** One failed attempt, classified. */
export interface AttemptFailure {
  failure: PolicyFailure;
  retryable: boolean;
  /** The response headers, when there was a response (for `Retry-After`). */
  headers?: HeaderSource;
}

/** How the attempt ended, as the caller saw it: its own timer and the caller's signal. */
export interface AttemptContext {
  /** The caller's signal aborted. */
  aborted: boolean;
  /** The per-attempt timer fired. */
  timedOut: boolean;
  timeoutMs: number;
}

/** Classifies what the SDK threw (or the attempt ended with). */
export function classifyOpenAiError(error: unknown, context: AttemptContext): AttemptFailure {
  // Our own abort reasons first: the SDK reports both as a user abort, or a stream just ends.
  if (context.aborted) return { failure: { kind: 'aborted', message: 'the request was aborted by the caller' }, retryable: false };
  if (context.timedOut || error instanceof APIConnectionTimeoutError) {
    return { failure: { kind: 'timeout', message: `no complete response within ${context.timeoutMs} ms` }, retryable: true };
  }
  if (error instanceof APIConnectionError) {
    return { failure: { kind: 'network', message: `connection failed: ${describeCause(error)}` }, retryable: true };
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const message = error.message || `HTTP ${status}`;
    const headers = error.headers instanceof Headers ? { headers: error.headers } : {};
    if (status === 429) return { failure: { kind: 'rate_limited', message, status }, retryable: true, ...headers };
    if (status >= 500) return { failure: { kind: 'server_error', message, status }, retryable: true, ...headers };
    return { failure: { kind: 'bad_request', message, status }, retryable: false, ...headers };
  }
  if (error instanceof APIError) {
    // An `error` event inside an SSE stream: the server gave up mid-answer.
    return { failure: { kind: 'server_error', message: error.message || 'the stream reported an error' }, retryable: true };
  }
  // Anything else is a body the SDK could not read (invalid JSON, a broken event stream): the
  // server answered, but not in the protocol. Retrying the same server rarely fixes that.
  const text = error instanceof Error ? error.message : String(error);
  return { failure: { kind: 'server_error', message: `malformed response: ${text}` }, retryable: false };
}

function describeCause(error: APIConnectionError): string {
  const cause = error.cause;
  const detail = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : '';
  return detail ? `${error.message} (${detail})` : error.message;
}
