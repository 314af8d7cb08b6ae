/**
 * `baton bench runner`: how well the runner keeps a model endpoint busy. The scripted
 * OpenAI-compatible server, on a worker thread of its own, answers every call after a fixed
 * latency and serves both the `llm` agent and the `llm` customer; at concurrency C and latency L
 * the ideal is C / L calls per second, and the runner's efficiency is its measured call rate over
 * that. Beside it, in the same run: a bare loop of the same calls through the same client (what
 * the endpoint and the HTTP client allow on this machine, with no runner at all), and scripted
 * episodes per second (the rule agent and the scripted customer, no model at all).
 *
 * Each measurement follows an untimed warm-up of the same work, so that it measures the runner,
 * not the JIT compiling it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ChatMessage, ToolSpec } from '../core/policy.js';
import { runEval, type EvalConfig } from '../lab/eval/run-eval.js';
import { STYLES } from '../lab/user.js';
import { createOpenAiPolicy } from '../llm/openai-policy.js';
import type { EndpointMessage, EndpointStats } from './bench-runner-endpoint.js';

export interface RunnerBenchOptions {
  concurrency: number;
  latencyMs: number;
  /** Trials of each of billing's 150 dev-split hand-off episodes in the timed run. */
  trials: number;
  /** Threads running episodes (`baton eval --workers`). */
  workers: number;
  tau2Dir?: string;
  progress: (line: string) => void;
}

/** Model calls per episode in the bench's conversation (customer, agent, customer). */
const CALLS_PER_EPISODE = 3;

interface Endpoint {
  url: string;
  stats(): Promise<EndpointStats>;
  close(): Promise<void>;
}

async function startEndpoint(latencyMs: number): Promise<Endpoint> {
  const worker = new Worker(new URL('./bench-runner-endpoint.js', import.meta.url), { workerData: { latencyMs } });
  const reply = <T extends EndpointMessage['type']>(type: T, send?: 'stats' | 'close') =>
    new Promise<Extract<EndpointMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (message: EndpointMessage) => {
        if (message.type !== type) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(message as Extract<EndpointMessage, { type: T }>);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      if (send) worker.postMessage(send);
    });
  const { url } = await reply('ready');
  return {
    url,
    stats: async () => {
      const { calls, maxInFlight } = await reply('stats', 'stats');
      return { calls, maxInFlight };
    },
    close: async () => {
      await reply('closed', 'close');
      await worker.terminate();
    },
  };
}

/** Runs `work` against a fresh endpoint and returns its seconds and the endpoint's counts. */
async function timed<T>(latencyMs: number, work: (url: string) => Promise<T>) {
  const endpoint = await startEndpoint(latencyMs);
  try {
    const started = performance.now();
    const result = await work(endpoint.url);
    const seconds = (performance.now() - started) / 1000;
    return { result, seconds, ...(await endpoint.stats()) };
  } finally {
    await endpoint.close();
  }
}

/**
 * The baseline: `episodes` rounds of the same three calls (customer, agent with tools, customer),
 * `concurrency` at a time, through the OpenAI-compatible client the runner uses — no gateway, no
 * harness, no evaluator.
 */
async function bareLoop(url: string, episodes: number, concurrency: number): Promise<void> {
  const policy = createOpenAiPolicy({ baseURL: url, model: 'scripted', concurrency });
  const tools: ToolSpec[] = [
    { name: 'get_charges', description: 'List charges.', parameters: { type: 'object', properties: { customer_id: { type: 'string' } } } },
  ];
  const customer: ChatMessage[] = [{ role: 'system', content: 'You are a customer.' }];
  const agent: ChatMessage[] = [
    { role: 'system', content: 'You are a support agent.' },
    { role: 'user', content: 'Hello, I need help with a charge on my bill.' },
  ];
  let next = 0;
  const one = async () => {
    while (next++ < episodes) {
      for (const request of [
        { messages: customer, tools: [] },
        { messages: agent, tools },
        { messages: [...customer, { role: 'assistant', content: 'Hello', toolCalls: [] } as ChatMessage], tools: [] },
      ]) {
        const response = await policy.next(request);
        if (!response.ok) throw new Error(`baseline call failed: ${response.failure.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
}

export async function benchRunner(options: RunnerBenchOptions) {
  const { concurrency, latencyMs } = options;
  const work = mkdtempSync(join(tmpdir(), 'baton-bench-runner-'));
  const base: Omit<EvalConfig, 'agent' | 'user' | 'out' | 'concurrency' | 'trials'> = {
    domain: 'billing',
    tasks: 'handoff',
    split: 'dev',
    styles: [...STYLES],
    seed: 1,
    store: { kind: 'memory' },
    force: false,
    ...(options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}),
  };
  const llmRun = (trials: number, out: string) => (url: string) => {
    const endpoint = { baseURL: url, model: 'scripted' };
    return runEval({
      ...base,
      agent: 'llm',
      user: 'llm',
      trials,
      concurrency,
      out: join(work, out),
      agentModel: endpoint,
      userModel: endpoint,
    });
  };
  const ideal = concurrency / (latencyMs / 1000);
  const round = (x: number, d = 3) => Number(x.toFixed(d));
  try {
    options.progress('warm-up (untimed): one pass of the llm run and of the bare loop…');
    await timed(latencyMs, llmRun(1, 'warm-up'));
    await timed(latencyMs, (url) => bareLoop(url, 150, concurrency));

    options.progress(`llm agent and llm customer: ${options.trials} trial(s), concurrency ${concurrency}, ${latencyMs} ms per call…`);
    const llm = await timed(latencyMs, llmRun(options.trials, 'llm'));
    const episodes = llm.result.records.length;

    options.progress('baseline: the same calls in a bare loop through the same client…');
    const bare = await timed(latencyMs, (url) => bareLoop(url, episodes, concurrency));

    options.progress('scripted: rule agent and scripted customer…');
    await runEval({ ...base, agent: 'rule', user: 'scripted', trials: 1, concurrency: 4, out: join(work, 'scripted-warm-up') });
    const scriptedStart = performance.now();
    const scripted = await runEval({ ...base, agent: 'rule', user: 'scripted', trials: 1, concurrency: 4, out: join(work, 'scripted') });
    const scriptedSeconds = (performance.now() - scriptedStart) / 1000;

    const efficiency = llm.calls / llm.seconds / ideal;
    const bareEfficiency = bare.calls / bare.seconds / ideal;
    return {
      benchmark: 'runner',
      concurrency,
      latency_ms: latencyMs,
      workers: options.workers,
      endpoint: 'scripted OpenAI-compatible server on its own worker thread',
      llm: {
        episodes,
        model_calls: llm.calls,
        seconds: round(llm.seconds),
        calls_per_second: round(llm.calls / llm.seconds, 1),
        ideal_calls_per_second: round(ideal, 1),
        efficiency: round(efficiency),
        // With E episodes of equal length, C at a time, the last round is partly empty: no runner beats E / (C · ⌈E / C⌉).
        efficiency_bound: round(episodes / (concurrency * Math.ceil(episodes / concurrency))),
        max_in_flight: llm.maxInFlight,
        user_errors: llm.result.records.filter((r) => r.termination === 'user_error').length,
      },
      baseline: {
        what: 'the same calls, concurrency and client in a bare loop: no gateway, harness or evaluator',
        model_calls: bare.calls,
        seconds: round(bare.seconds),
        efficiency: round(bareEfficiency),
      },
      efficiency_vs_baseline: round(efficiency / bareEfficiency),
      scripted: {
        episodes: scripted.records.length,
        seconds: round(scriptedSeconds),
        episodes_per_second: round(scripted.records.length / scriptedSeconds, 1),
      },
      calls_per_episode: CALLS_PER_EPISODE,
      goal: 'efficiency >= 0.9',
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
