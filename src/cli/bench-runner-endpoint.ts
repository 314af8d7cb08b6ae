/**
 * The model endpoint of `baton bench runner`, on a worker thread of its own: the scripted
 * OpenAI-compatible server answering every call after a fixed latency. A real endpoint (vLLM,
 * a hosted API) is another process; run in the runner's own thread, the server's CPU would be
 * charged to the runner it measures.
 *
 * The conversation it plays: the customer opens, the agent answers, the customer stops — three
 * model calls per episode. Messages from the main thread: `stats` (answered with the call count
 * and the most calls ever in flight), `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startScriptedOpenAiServer, type RecordedRequest } from '../testing/scripted-openai-server.js';
import type { ScriptedStep } from '../testing/scripted-openai-replies.js';

export interface EndpointStats {
  calls: number;
  maxInFlight: number;
}

export type EndpointMessage = { type: 'ready'; url: string } | ({ type: 'stats' } & EndpointStats) | { type: 'closed' };

/** The bench's conversation, for a latency: the agent is the request that offers tools. */
export function benchScript(latencyMs: number) {
  return (request: RecordedRequest): ScriptedStep => {
    const body = request.body as { tools?: unknown; messages?: { role: string }[] } | undefined;
    if (Array.isArray(body?.tools)) {
      return { type: 'reply', content: 'Thank you. Is there anything else I can help you with?', delayMs: latencyMs };
    }
    const spoke = (body?.messages ?? []).filter((m) => m.role === 'assistant').length;
    return { type: 'reply', content: spoke === 0 ? 'Hello, I need help with a charge on my bill.' : '###STOP###', delayMs: latencyMs };
  };
}

if (parentPort) {
  const port = parentPort;
  const { latencyMs } = workerData as { latencyMs: number };
  const server = await startScriptedOpenAiServer({ script: benchScript(latencyMs) });
  const calls = () => server.requests.filter((r) => r.path.endsWith('/chat/completions')).length;
  port.on('message', (message: 'stats' | 'close') => {
    if (message === 'stats') port.postMessage({ type: 'stats', calls: calls(), maxInFlight: server.maxInFlight } satisfies EndpointMessage);
    else void server.close().then(() => port.postMessage({ type: 'closed' } satisfies EndpointMessage));
  });
  port.postMessage({ type: 'ready', url: server.url } satisfies EndpointMessage);
}
