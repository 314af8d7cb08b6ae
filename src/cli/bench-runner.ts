/**
 * `baton bench runner`: how well the runner keeps a model endpoint busy. The local scripted
 * OpenAI-compatible server answers every call after a fixed latency and serves both the `llm`
 * agent and the `llm` customer; at concurrency C and latency L the ideal is C / L calls per second,
 * and the runner's efficiency is its measured call rate over that. Also: scripted episodes per
 * second (the rule agent and the scripted customer, no model at all).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runEval, type EvalConfig } from '../lab/eval/run-eval.js';
import { STYLES } from '../lab/user.js';
import { startScriptedOpenAiServer, type RecordedRequest } from '../testing/scripted-openai-server.js';

export interface RunnerBenchOptions {
  concurrency: number;
  latencyMs: number;
  tau2Dir?: string;
  progress: (line: string) => void;
}

const hasTools = (request: RecordedRequest) => Array.isArray((request.body as { tools?: unknown } | undefined)?.tools);

export async function benchRunner(options: RunnerBenchOptions) {
  const work = mkdtempSync(join(tmpdir(), 'baton-bench-runner-'));
  // The agent answers; the customer says one line, then stops: three model calls per episode.
  const server = await startScriptedOpenAiServer({
    script: (request) => {
      if (hasTools(request))
        return { type: 'reply', content: 'Thank you. Is there anything else I can help you with?', delayMs: options.latencyMs };
      const messages = (request.body as { messages?: { role: string }[] }).messages ?? [];
      const spoke = messages.filter((m) => m.role === 'assistant').length;
      return {
        type: 'reply',
        content: spoke === 0 ? 'Hello, I need help with a charge on my bill.' : '###STOP###',
        delayMs: options.latencyMs,
      };
    },
  });
  try {
    const base: Omit<EvalConfig, 'agent' | 'user' | 'out' | 'concurrency'> = {
      domain: 'billing',
      tasks: 'handoff',
      split: 'dev',
      styles: [...STYLES],
      trials: 1,
      seed: 1,
      store: { kind: 'memory' },
      force: false,
      ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
    };
    const endpoint = { baseURL: server.url, model: 'scripted' };
    options.progress(`llm agent and llm customer, concurrency ${options.concurrency}, ${options.latencyMs} ms per call…`);
    const started = performance.now();
    const llm = await runEval({
      ...base,
      agent: 'llm',
      user: 'llm',
      concurrency: options.concurrency,
      out: join(work, 'llm'),
      agentModel: endpoint,
      userModel: endpoint,
    });
    const seconds = (performance.now() - started) / 1000;
    const calls = server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
    const ideal = options.concurrency / (options.latencyMs / 1000);
    const rate = calls / seconds;

    options.progress('scripted: rule agent and scripted customer…');
    const scriptedStart = performance.now();
    const scripted = await runEval({ ...base, agent: 'rule', user: 'scripted', concurrency: 4, out: join(work, 'scripted') });
    const scriptedSeconds = (performance.now() - scriptedStart) / 1000;
    const round = (x: number, d = 3) => Number(x.toFixed(d));
    return {
      benchmark: 'runner',
      concurrency: options.concurrency,
      latency_ms: options.latencyMs,
      llm: {
        episodes: llm.records.length,
        model_calls: calls,
        seconds: round(seconds),
        calls_per_second: round(rate, 1),
        ideal_calls_per_second: round(ideal, 1),
        efficiency: round(rate / ideal),
        max_in_flight: server.maxInFlight,
        user_errors: llm.records.filter((r) => r.termination === 'user_error').length,
      },
      scripted: {
        episodes: scripted.records.length,
        seconds: round(scriptedSeconds),
        episodes_per_second: round(scripted.records.length / scriptedSeconds, 1),
      },
      goal: 'efficiency >= 0.9',
    };
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
