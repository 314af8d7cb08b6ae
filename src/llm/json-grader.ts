/**
 * The one call every grader makes: a system prompt and a user message to an OpenAI-compatible
 * model at temperature 0, asking for a JSON object, answered with the model's text. Used by the
 * NL-assertion judge (`src/domains/judge.ts`) and the dense reward's rubric judge
 * (`src/rewards/rubric-judge.ts`); each checks the shape of what comes back itself.
 */
import OpenAI from 'openai';
import { nodeFetch } from './node-fetch.js';

export interface JsonGraderConfig {
  baseURL: string;
  apiKey?: string;
  model: string;
  /** Per attempt (default 120 s: graders read whole conversations). */
  timeoutMs?: number;
}

/** Asks `model` for a JSON object; resolves with its text ('' when it sent none), rejects on HTTP failure after two retries. */
export type AskJson = (system: string, user: string) => Promise<string>;

export function createJsonGrader(config: JsonGraderConfig): AskJson {
  const client = new OpenAI({
    baseURL: config.baseURL,
    apiKey: config.apiKey ?? 'none',
    maxRetries: 2,
    timeout: config.timeoutMs ?? 120_000,
    fetch: nodeFetch,
  });
  return async (system, user) => {
    const completion = await client.chat.completions.create({
      model: config.model,
      temperature: 0,
      response_format: { type: 'json_object' },
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
    });
    return completion.choices[0]?.message.content ?? '';
  };
}
