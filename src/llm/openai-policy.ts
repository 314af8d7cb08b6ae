/**
 * The policy port over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama,
 * llama.cpp's server …), through the `openai` SDK. The SDK does the HTTP and the wire types; the
 * retry loop, the per-attempt timeout and the per-endpoint concurrency limit are ours, so that
 * they are tested, counted and the same whatever the SDK version does by default.
 */
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import type { Policy, PolicyFailure, PolicyRequest, PolicyResponse } from '../core/policy.js';
import { classifyOpenAiError, type AttemptFailure } from './classify-openai-error.js';
import { sharedEndpointLimiters, type EndpointLimiters } from './endpoint-limiter.js';
import { nodeFetch } from './node-fetch.js';
import { readCompletion, toOpenAiMessages, toOpenAiTools, type CompletionReading } from './openai-wire.js';
import { backoffDelayMs, serverRetryDelayMs } from './retry-delay.js';
import { createStreamAccumulator } from './stream-accumulator.js';

/** The serialisable part of the options: what a config file or the CLI can say. */
export const OpenAiPolicyConfigSchema = z.object({
  /** Base URL of the API, with its version path: `https://api.openai.com/v1`, `http://localhost:8000/v1`. */
  baseURL: z.url({ protocol: /^https?$/, error: 'baseURL must be an http(s) URL such as http://localhost:8000/v1' }),
  /** Sent as a bearer token. Local servers (vLLM without --api-key, Ollama) need none. */
  apiKey: z.string().min(1).optional(),
  /** The model name the endpoint serves. */
  model: z.string().min(1, 'model must name the model the endpoint serves'),
  /** The policy's name in logs and run records; `openai:<model>` by default. */
  name: z.string().min(1).optional(),
  /** Sampling temperature; the server's default when unset. */
  temperature: z.number().min(0).max(2).optional(),
  /** Limit on one attempt, from sending the request to the last byte of the answer. */
  timeoutMs: z.number().int().positive().default(60_000),
  /** Attempts after the first, on 429, 5xx, timeouts and network errors. */
  maxRetries: z.number().int().min(0).default(3),
  /** Ask for a streamed answer (server-sent events). */
  stream: z.boolean().default(false),
  /** Requests in flight at once to this endpoint, shared by every policy with the same base URL. */
  concurrency: z.number().int().positive().default(4),
  /** Back-off before the first retry, before jitter; doubles with every retry. */
  retryBaseMs: z.number().nonnegative().default(500),
  /** The longest wait between attempts. A `Retry-After` asking for longer ends the retries. */
  maxRetryDelayMs: z.number().nonnegative().default(60_000),
});

/** Configuration of `createOpenAiPolicy`, before defaults. */
export type OpenAiPolicyConfig = z.input<typeof OpenAiPolicyConfigSchema>;

/** Waits `ms`; may resolve early when `signal` aborts (the caller checks it). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Options of `createOpenAiPolicy`: the configuration plus what tests and runners inject. */
export type OpenAiPolicyOptions = OpenAiPolicyConfig & {
  /** Reads the time for `Retry-After` dates. */
  clock?: Clock;
  /** Waits between attempts; tests inject one that records and returns at once. */
  sleep?: Sleep;
  /** Uniform in [0, 1): the back-off jitter. */
  random?: () => number;
  /** Where per-endpoint limits live; the process-wide registry by default. */
  limiters?: EndpointLimiters;
};

/** Cumulative counts of one policy object since it was created. */
export interface OpenAiPolicyUsage {
  promptTokens: number;
  completionTokens: number;
  /** `next` calls. */
  calls: number;
  /** HTTP attempts: calls plus retries. */
  requests: number;
  /** Attempts after the first of a call. */
  retries: number;
  /** Calls that returned a failure. */
  failures: number;
}

/** A `Policy` backed by an OpenAI-compatible endpoint, with its running totals. */
export interface OpenAiPolicy extends Policy {
  readonly model: string;
  readonly baseURL: string;
  /** Totals so far (a copy). */
  usage(): OpenAiPolicyUsage;
}

type AttemptOutcome = { ok: true; reading: Extract<CompletionReading, { ok: true }> } | { ok: false; failed: AttemptFailure };

/** Checked configurations by their JSON: the lab builds one policy per simulated customer, all alike. */
const checked = new Map<string, z.output<typeof OpenAiPolicyConfigSchema>>();

function validConfig(input: OpenAiPolicyConfig): z.output<typeof OpenAiPolicyConfigSchema> {
  const key = JSON.stringify(input);
  const known = checked.get(key);
  if (known) return known;
  const parsed = OpenAiPolicyConfigSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid OpenAI-compatible policy options:\n${z.prettifyError(parsed.error)}`);
  if (checked.size >= 256) checked.clear();
  checked.set(key, parsed.data);
  return parsed.data;
}

/**
 * SDK clients by endpoint, key and timeout. A client holds only its configuration, and building
 * one costs more than a chat completion's own client-side work: the lab makes a policy per
 * simulated customer, thousands per run, against one or two endpoints.
 */
const clients = new Map<string, OpenAI>();

function clientFor(baseURL: string, apiKey: string, timeoutMs: number): OpenAI {
  const key = JSON.stringify([baseURL, apiKey, timeoutMs]);
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({
      baseURL,
      // Passed explicitly so that the SDK never falls back to OPENAI_API_KEY from the environment.
      apiKey,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: timeoutMs,
      fetch: nodeFetch,
    });
    clients.set(key, client);
  }
  return client;
}

/**
 * A policy over an OpenAI-compatible endpoint. Throws only on invalid options (a configuration
 * error, before any request); every outcome of a request — including exhausted retries, timeouts
 * and aborts — comes back as a `PolicyResponse`.
 */
export function createOpenAiPolicy(options: OpenAiPolicyOptions): OpenAiPolicy {
  const { clock, sleep = defaultSleep, random = Math.random, limiters = sharedEndpointLimiters, ...rest } = options;
  const config = validConfig(rest);
  const now = () => (clock ? clock.now() : Date.now());
  const limiter = limiters.forEndpoint(config.baseURL, config.concurrency);
  const client = clientFor(config.baseURL, config.apiKey ?? 'none', config.timeoutMs);
  const totals: OpenAiPolicyUsage = { promptTokens: 0, completionTokens: 0, calls: 0, requests: 0, retries: 0, failures: 0 };

  const body = (request: PolicyRequest): ChatCompletionCreateParamsNonStreaming => ({
    model: config.model,
    messages: toOpenAiMessages(request.messages),
    // OpenAI rejects an empty `tools` array: no tools means no key.
    ...(request.tools.length > 0 ? { tools: toOpenAiTools(request.tools) } : {}),
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
  });

  const send = async (params: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<CompletionReading> => {
    if (!config.stream) return readCompletion(await client.chat.completions.create(params, { signal }));
    const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal });
    const accumulator = createStreamAccumulator();
    for await (const chunk of stream) accumulator.add(chunk);
    return accumulator.finish();
  };

  /** One HTTP attempt under its own timer; the caller's signal aborts it too. */
  const attempt = async (params: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal | undefined): Promise<AttemptOutcome> => {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const context = () => ({ aborted: signal?.aborted === true, timedOut, timeoutMs: config.timeoutMs });
    try {
      const reading = await send(params, controller.signal);
      // An aborted stream ends quietly in the SDK instead of throwing: what it gathered is partial.
      if (controller.signal.aborted) return { ok: false, failed: classifyOpenAiError(undefined, context()) };
      if (!reading.ok) return { ok: false, failed: { failure: { kind: 'server_error', message: reading.message }, retryable: false } };
      return { ok: true, reading };
    } catch (error) {
      return { ok: false, failed: classifyOpenAiError(error, context()) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };

  const fail = (failure: PolicyFailure): PolicyResponse => {
    totals.failures++;
    return { ok: false, failure };
  };
  const aborted = (): PolicyResponse => fail({ kind: 'aborted', message: 'the request was aborted by the caller' });

  return {
    name: config.name ?? `openai:${config.model}`,
    model: config.model,
    baseURL: config.baseURL,
    usage: () => ({ ...totals }),
    async next(request) {
      totals.calls++;
      const params = body(request);
      for (let retry = 0; ; retry++) {
        if (request.signal?.aborted) return aborted();
        const release = await limiter.acquire(request.signal);
        if (!release) return aborted();
        totals.requests++;
        let outcome: AttemptOutcome;
        try {
          outcome = await attempt(params, request.signal);
        } finally {
          // The slot is held for the attempt only, never across a back-off sleep.
          release();
        }
        if (outcome.ok) {
          const { content, toolCalls, usage } = outcome.reading;
          totals.promptTokens += usage.promptTokens;
          totals.completionTokens += usage.completionTokens;
          return { ok: true, content, toolCalls, usage };
        }
        const { failure, retryable, headers } = outcome.failed;
        const attempts = retry + 1;
        if (!retryable) return fail(attempts > 1 ? withAttempts(failure, attempts) : failure);
        if (retry >= config.maxRetries) return fail(withAttempts(failure, attempts));
        const asked = serverRetryDelayMs(headers, now());
        if (asked !== undefined && asked > config.maxRetryDelayMs) {
          // Retrying sooner than asked would only be refused again; waiting longer than the caller
          // allowed would stall the conversation. Either way the honest answer is to stop here.
          const why = `the server asked to wait ${asked} ms, more than maxRetryDelayMs (${config.maxRetryDelayMs} ms)`;
          return fail(withAttempts({ ...failure, message: `${failure.message}; ${why}` }, attempts));
        }
        const delay = asked ?? backoffDelayMs(retry, { baseMs: config.retryBaseMs, maxMs: config.maxRetryDelayMs, random });
        totals.retries++;
        await sleep(delay, request.signal);
      }
    },
  };
}

function withAttempts(failure: PolicyFailure, attempts: number): PolicyFailure {
  return { ...failure, message: `${failure.message} (after ${attempts} attempt${attempts === 1 ? '' : 's'})` };
}

const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
