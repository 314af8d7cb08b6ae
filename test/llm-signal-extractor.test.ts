import { afterEach, describe, expect, it } from 'vitest';
import { decideHandoff, DEFAULT_DECIDER_POLICY, DeciderPolicySchema, type TranscriptItem } from '../src/core/index.js';
import { createEndpointLimiters } from '../src/llm/endpoint-limiter.js';
import { llmSignalExtractor } from '../src/llm/llm-signal-extractor.js';
import { createOpenAiPolicy } from '../src/llm/openai-policy.js';
import { startScriptedOpenAiServer, type ScriptedOpenAiServer, type ScriptedStep } from '../src/testing/scripted-openai-server.js';

const servers: ScriptedOpenAiServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

async function extractor(script: ScriptedStep[]) {
  const server = await startScriptedOpenAiServer({ script });
  servers.push(server);
  const policy = createOpenAiPolicy({ baseURL: server.url, model: 'classifier', maxRetries: 0, limiters: createEndpointLimiters() });
  return { extract: llmSignalExtractor({ policy }), server };
}
const reply = (signals: unknown): ScriptedStep => ({ type: 'reply', content: JSON.stringify({ signals }) });

describe('the LLM signal classifier (over HTTP, against the scripted server)', () => {
  const items: TranscriptItem[] = [
    { role: 'customer', text: 'Honestly, could a living breathing person look at my account?' },
    { role: 'tool', name: 'refund_charge', arguments: { amount: 90 }, ok: true, output: 'ok' },
  ];

  it('its labels drive the same decider; tool-log signals stay deterministic', async () => {
    const { extract, server } = await extractor([
      reply([{ kind: 'human_request', index: 0, evidence: 'could a living breathing person look at my account' }]),
    ]);
    const signals = await extract.extract(items, DeciderPolicySchema.parse({ autonomousLimit: 50 }));
    expect(signals.map((s) => s.kind).sort()).toEqual(['human_request', 'tool_result', 'write_amount']);
    expect(decideHandoff(signals, DEFAULT_DECIDER_POLICY)).toMatchObject({
      handoff: true,
      reason: 'customer_request',
      evidence: 'could a living breathing person look at my account',
    });
    const prompt = JSON.stringify(server.requests[0]!.body);
    expect(prompt).toContain('0. CUSTOMER: Honestly, could a living breathing person');
  });

  it('drops labels whose evidence is not a quote of the turn', async () => {
    const { extract } = await extractor([reply([{ kind: 'policy_topic', topic: 'legal', index: 0, evidence: 'I will sue you' }])]);
    const signals = await extract.extract(items, DEFAULT_DECIDER_POLICY);
    expect(signals.filter((s) => s.kind === 'policy_topic')).toEqual([]);
  });

  it('falls back to the lexicon detector when the model fails or answers nonsense', async () => {
    for (const step of [
      { type: 'error', status: 500 } as ScriptedStep,
      { type: 'reply', content: 'I think they want a human.' } as ScriptedStep,
    ]) {
      const { extract } = await extractor([step]);
      const signals = await extract.extract([{ role: 'customer', text: 'get me your supervisor' }], DEFAULT_DECIDER_POLICY);
      expect(decideHandoff(signals, DEFAULT_DECIDER_POLICY)).toMatchObject({ handoff: true, reason: 'customer_request' });
    }
  });
});

describe('a structured request for a person ("Talk to a person") under the LLM classifier', () => {
  it('is kept from the structure, whatever the model labels', async () => {
    // The model reads the pressed button's words as nothing; the flag still asks for a person.
    const { extract } = await extractor([reply([])]);
    const items: TranscriptItem[] = [{ role: 'customer', text: 'I would like to talk to a person, please.', request: 'person' }];
    const signals = await extract.extract(items, DEFAULT_DECIDER_POLICY);
    expect(signals).toEqual([{ kind: 'human_request', evidence: 'I would like to talk to a person, please.', index: 0, offset: 0 }]);
    expect(decideHandoff(signals, DEFAULT_DECIDER_POLICY)).toMatchObject({ handoff: true, reason: 'customer_request' });
  });
});
