/**
 * The NL-assertion judge: one call to an OpenAI-compatible model (temperature 0) with the whole
 * trajectory and the assertions, answered as JSON `{results: [{expectedOutcome, reasoning,
 * metExpectation}]}`. A judge that fails, or answers with a result count that does not match the
 * assertions, leaves the task unscored rather than passed.
 */
import { createJsonGrader } from '../llm/json-grader.js';
import { z } from 'zod';

const JudgeResultSchema = z.object({ expectedOutcome: z.string(), reasoning: z.string(), metExpectation: z.boolean() });
const JudgeAnswerSchema = z.object({ results: z.array(JudgeResultSchema) });
export type JudgeResult = z.infer<typeof JudgeResultSchema>;

export type JudgeVerdict = { ok: true; model: string; results: JudgeResult[] } | { ok: false; error: string };

export interface Judge {
  readonly model: string;
  judge(input: { trajectory: string; assertions: readonly string[] }): Promise<JudgeVerdict>;
}

export interface OpenAiJudgeConfig {
  baseURL: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

const SYSTEM = [
  'You grade a customer-service conversation against a list of expected outcomes.',
  'For each expected outcome, decide from the conversation alone whether the agent met it.',
  'Answer with JSON only: {"results": [{"expectedOutcome": <the outcome, verbatim>, "reasoning": <one or two sentences>, "metExpectation": true|false}]},',
  'one result per expected outcome, in the order given.',
].join('\n');

/** A judge behind an OpenAI-compatible endpoint. */
export function createOpenAiJudge(config: OpenAiJudgeConfig): Judge {
  const ask = createJsonGrader(config);
  return {
    model: config.model,
    async judge({ trajectory, assertions }) {
      const user = `<conversation>\n${trajectory}\n</conversation>\n\n<expected_outcomes>\n${assertions.map((a, i) => `${i + 1}. ${a}`).join('\n')}\n</expected_outcomes>`;
      let text: string | null | undefined;
      try {
        text = await ask(SYSTEM, user);
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      if (!text) return { ok: false, error: 'the judge sent no content' };
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { ok: false, error: `the judge's answer is not JSON: ${text.slice(0, 200)}` };
      }
      const answer = JudgeAnswerSchema.safeParse(parsed);
      if (!answer.success) return { ok: false, error: `the judge's answer has the wrong shape: ${z.prettifyError(answer.error)}` };
      if (answer.data.results.length !== assertions.length) {
        return { ok: false, error: `the judge returned ${answer.data.results.length} results for ${assertions.length} assertions` };
      }
      return { ok: true, model: config.model, results: answer.data.results };
    },
  };
}
