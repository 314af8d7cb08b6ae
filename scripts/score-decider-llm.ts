/**
 * A WIRING TEST, not a measurement of any model: the LLM signal extractor, behind the same port
 * as the lexicon, scored over HTTP against the scripted OpenAI-compatible server
 * (src/testing/scripted-openai-server.ts) on the first N cases of a development corpus. The
 * scripted "model" either answers no labels at all (`empty`: only the tool log's signals reach
 * the decider) or fails every call (`error`: the extractor falls back to the lexicon detector).
 * The figures show the wiring (the prompt goes out, the answer is parsed, tool signals stay
 * deterministic, the fallback answers), nothing about a real model's quality.
 *
 *   npx tsx scripts/score-decider-llm.ts data/decider/blind-dev.jsonl [N]
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DecideLineSchema } from '../src/cli/decide-command.js';
import { decideHandoff } from '../src/core/index.js';
import { createEndpointLimiters } from '../src/llm/endpoint-limiter.js';
import { llmSignalExtractor } from '../src/llm/llm-signal-extractor.js';
import { createOpenAiPolicy } from '../src/llm/openai-policy.js';
import { formatDeciderScore, parseDeciderCorpus, scoreDecider, type DeciderAnswer } from '../src/testing/decider-corpus.js';
import { startScriptedOpenAiServer, type ScriptedStep } from '../src/testing/scripted-openai-server.js';

const [file, n] = process.argv.slice(2);
if (!file || /holdout/i.test(file)) throw new Error('usage: score-decider-llm.ts DEV_FILE.jsonl [N] (never a held-out part)');
const cases = parseDeciderCorpus(readFileSync(file, 'utf8'), basename(file)).slice(0, Number(n ?? 300));

for (const mode of ['empty', 'error'] as const) {
  const step: ScriptedStep =
    mode === 'empty' ? { type: 'reply', content: JSON.stringify({ signals: [] }) } : { type: 'error', status: 500 };
  const server = await startScriptedOpenAiServer({ script: () => step });
  try {
    const policy = createOpenAiPolicy({ baseURL: server.url, model: 'scripted', maxRetries: 0, limiters: createEndpointLimiters() });
    const extractor = llmSignalExtractor({ policy });
    const answers = new Map<string, DeciderAnswer>();
    for (const c of cases) {
      const line = DecideLineSchema.parse(c.conversation);
      const { handoff, reason } = decideHandoff(await extractor.extract(line.messages, line.policy), line.policy);
      answers.set(c.id, { handoff, reason });
    }
    const score = scoreDecider(cases, (c) => answers.get(c.id)!);
    process.stdout.write(
      `${formatDeciderScore(`${basename(file)} first ${cases.length} [llm extractor, scripted ${mode}; ${server.requests.length} requests]`, score).split('\n')[0]}\n`,
    );
  } finally {
    await server.close();
  }
}
