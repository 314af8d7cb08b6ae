/**
 * The LLM customer: any OpenAI-compatible endpoint, prompted as tau2-bench prompts its user
 * simulator — the user guidelines, then the scenario inside `<scenario>` tags — plus the
 * variant's instruction and the style card. It sees the conversation with roles flipped (the
 * agent's text arrives as `user` turns, its own earlier messages as `assistant`) and never the
 * agent's tool calls. The HTTP side (retries with back-off on 429, 5xx, timeouts and network
 * errors; the per-endpoint concurrency limit) is the project's OpenAI-compatible policy client.
 */
import type { Clock } from '../../core/clock.js';
import type { ChatMessage, PolicyFailure } from '../../core/policy.js';
import { resolveTau2Data, type Tau2DataOptions } from '../../domains/tau2/tau2-data.js';
import type { EndpointLimiters } from '../../llm/endpoint-limiter.js';
import { createOpenAiPolicy, type OpenAiPolicyUsage, type Sleep } from '../../llm/openai-policy.js';
import { STOP_TOKENS, type CustomerTurn, type CustomerView, type StopToken, type Style, type UserSimulator } from '../user.js';
import { styleCardPrompt } from './styles.js';

/** Where tau2-bench keeps its user simulator's guidelines, inside a tau2 data folder. */
export const USER_GUIDELINES_FILE = 'user_simulator/simulation_guidelines.md';

/**
 * tau2-bench's user guidelines (`user_simulator/simulation_guidelines.md`), found and checked
 * like all tau2 data: `tau2Dir`, else `BATON_TAU2_DIR`, else the download cache or a download.
 */
export async function loadUserGuidelines(tau2Dir?: string, options: Omit<Tau2DataOptions, 'dir'> = {}): Promise<string> {
  const data = await resolveTau2Data(tau2Dir === undefined ? options : { ...options, dir: tau2Dir });
  return data.read(USER_GUIDELINES_FILE);
}

/** Options of {@link createLlmUser}. */
export interface LlmUserOptions {
  /** Base URL with its version path: `http://localhost:8000/v1`. */
  baseURL: string;
  apiKey?: string;
  model: string;
  style: Style;
  /** tau2-bench's user guidelines text ({@link loadUserGuidelines}). */
  guidelines: string;
  /** The scenario: a task's rendered `user_scenario`, or a rendered `UserScript` (`script-text.ts`). */
  scenario: string;
  /** The variant's instruction on top of the scenario ('' for none). */
  instruction: string;
  /** Sampling temperature (default 0, as tau2-bench runs its user simulator). */
  temperature?: number;
  /** Attempts after the first on transient errors (default 3). */
  maxRetries?: number;
  /** Back-off before the first retry, doubling after (default 500 ms). */
  retryBaseMs?: number;
  /** Limit on one attempt (default 60 s). */
  timeoutMs?: number;
  /** Requests in flight at once to this endpoint (default 4). */
  concurrency?: number;
  /** Injected by tests: the wait between attempts, the jitter, the limiter registry, the clock. */
  sleep?: Sleep;
  random?: () => number;
  limiters?: EndpointLimiters;
  clock?: Clock;
}

/** The model could not give the customer's next message: not transient, or retries ran out. */
export class LlmUserError extends Error {
  constructor(
    readonly failure: PolicyFailure,
    message: string,
  ) {
    super(message);
    this.name = 'LlmUserError';
  }
}

/** An LLM customer: the port, plus what it was told and what it cost. */
export interface LlmUser extends UserSimulator {
  readonly kind: 'llm';
  readonly model: string;
  /** The system prompt sent with every request. */
  readonly systemPrompt: string;
  usage(): OpenAiPolicyUsage;
}

/**
 * The user simulator's system prompt: tau2-bench's layout (guidelines, then the scenario in
 * `<scenario>` tags), followed by the variant's instruction and the style card in tags of their own.
 */
export function userSystemPrompt(options: Pick<LlmUserOptions, 'guidelines' | 'scenario' | 'instruction' | 'style'>): string {
  const parts = [options.guidelines.trim(), `<scenario>\n${options.scenario.trim()}\n</scenario>`];
  if (options.instruction.trim() !== '') parts.push(`<instruction>\n${options.instruction.trim()}\n</instruction>`);
  parts.push(`<style>\n${styleCardPrompt(options.style)}\n</style>`);
  return parts.join('\n\n');
}

/**
 * The conversation from the customer's side: the agent's messages as `user`, the customer's as
 * `assistant`, notices from the system as `user` messages marked as such.
 */
export function customerChat(systemPrompt: string, view: CustomerView): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    ...view.messages.map((message): ChatMessage => {
      switch (message.from) {
        case 'agent':
          return { role: 'user', content: message.text };
        case 'customer':
          return { role: 'assistant', content: message.text, toolCalls: [] };
        case 'system':
          return { role: 'user', content: `[System notice] ${message.text}` };
      }
    }),
  ];
}

/** The first stop token in a message, if any (tau2-bench checks for the token anywhere in the text). */
export function findStopToken(text: string): StopToken | null {
  let found: { token: StopToken; at: number } | null = null;
  for (const token of STOP_TOKENS) {
    const at = text.indexOf(token);
    if (at >= 0 && (found === null || at < found.at)) found = { token, at };
  }
  return found?.token ?? null;
}

/**
 * Creates an LLM customer. Each `next` sends the whole flipped conversation; a reply holding a
 * stop token ends the conversation with that token as the message. Transient HTTP failures are
 * retried with back-off; any other failure, or an empty reply, throws {@link LlmUserError}.
 */
export function createLlmUser(options: LlmUserOptions): LlmUser {
  const systemPrompt = userSystemPrompt(options);
  const policy = createOpenAiPolicy({
    baseURL: options.baseURL,
    ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
    model: options.model,
    name: `user:${options.model}`,
    temperature: options.temperature ?? 0,
    ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.random ? { random: options.random } : {}),
    ...(options.limiters ? { limiters: options.limiters } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });

  return {
    kind: 'llm',
    style: options.style,
    model: options.model,
    systemPrompt,
    usage: () => policy.usage(),
    async next(view: CustomerView): Promise<CustomerTurn> {
      const response = await policy.next({ messages: customerChat(systemPrompt, view), tools: [] });
      if (!response.ok) {
        throw new LlmUserError(response.failure, `the user model ${options.model} gave no reply: ${response.failure.message}`);
      }
      const text = response.content?.trim() ?? '';
      if (text === '') {
        throw new LlmUserError({ kind: 'server_error', message: 'empty reply' }, `the user model ${options.model} replied with no text`);
      }
      const stop = findStopToken(text);
      return stop ? { text: stop, stop } : { text, stop: null };
    },
  };
}
