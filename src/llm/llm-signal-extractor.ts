import {
  extractSignals,
  requestedSignals,
  SignalSchema,
  type DeciderPolicy,
  type Policy,
  type Signal,
  type SignalExtractor,
  type TranscriptItem,
} from '../core/index.js';

/** Signals that come from the tool log; these stay deterministic whatever classifies the text. */
const FROM_TOOLS = (s: Signal) =>
  s.kind === 'write_amount' || s.kind === 'tool_result' || (s.kind === 'no_capability' && s.cause !== 'out_of_scope');

const INSTRUCTIONS = `You label a customer-service conversation for a hand-off decider. Read the numbered turns and
return JSON only: {"signals": [ ... ]}, one entry per observation in a CUSTOMER turn, each with
"kind", "index" (the turn number) and "evidence" (an exact quote from that turn), and:
- "human_request": the customer asks for a person (directly or indirectly) or accepts an offered transfer;
- "human_declined": the customer refuses a person. Reported speech ("the agent at the airport said...") and people mentioned in passing are neither;
- "safety" with "topic": "self_harm" | "danger" | "medical";
- "policy_topic" with "topic": "complaint" (a formal complaint) | "bereavement" | "legal" (a legal threat);
- "no_capability" with "cause": "out_of_scope": a request for a service none of these capabilities cover: CAPABILITIES;
- "intent" with "intent": a short key naming what the customer wants; restatements of the same want use the same key;
- "frustration": the customer is frustrated (never a reason to hand off on its own).
Return {"signals": []} when there is nothing to report.`;

/** Options of {@link llmSignalExtractor}. */
export interface LlmSignalExtractorOptions {
  policy: Policy;
  /** Used when the model fails or answers something unusable: the lexicon detector by default. */
  fallback?: SignalExtractor;
}

/**
 * Signal extraction by a language model behind the policy port (any OpenAI-compatible
 * endpoint). The model labels the customer's turns; signals from the tool log stay deterministic.
 * A label whose evidence is not a quote of its turn is dropped, and when the model fails or its
 * answer does not parse, the fallback (the lexicon detector) answers instead, so the decider
 * never goes without signals.
 */
export function llmSignalExtractor(options: LlmSignalExtractorOptions): SignalExtractor {
  const fallback = options.fallback ?? { extract: extractSignals };
  return {
    async extract(items: readonly TranscriptItem[], policy: DeciderPolicy): Promise<Signal[]> {
      const capabilities = policy.capabilities.length
        ? policy.capabilities.map((c) => c.intent).join(', ')
        : '(not given: do not report no_capability)';
      const turns = items.map((item, i) =>
        item.role === 'tool' ? `${i}. [tool ${item.name}: ${item.ok ? 'ok' : 'failed'}]` : `${i}. ${item.role.toUpperCase()}: ${item.text}`,
      );
      const response = await options.policy.next({
        messages: [
          { role: 'system', content: INSTRUCTIONS.replace('CAPABILITIES', capabilities) },
          { role: 'user', content: turns.join('\n') },
        ],
        tools: [],
      });
      if (!response.ok || response.content === null) return fallback.extract(items, policy);
      const labelled = parseSignals(response.content, items);
      if (labelled === null) return fallback.extract(items, policy);
      const fromTools = (await fallback.extract(items, policy)).filter(FROM_TOOLS);
      // A control the customer pressed ("Talk to a person") is read from the structure, not labelled.
      const requested = requestedSignals(items);
      const pressed = new Set(requested.map((s) => s.index));
      return [...labelled.filter((s) => !pressed.has(s.index)), ...requested, ...fromTools].sort(
        (a, b) => a.index - b.index || a.offset - b.offset,
      );
    },
  };
}

/** The model's labels as signals: null if the answer is not the JSON asked for. */
function parseSignals(content: string, items: readonly TranscriptItem[]): Signal[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return null;
  }
  const raw = (parsed as { signals?: unknown })?.signals;
  if (!Array.isArray(raw)) return null;
  const signals: Signal[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { index, evidence } = entry as { index?: unknown; evidence?: unknown };
    const item = typeof index === 'number' ? items[index] : undefined;
    if (!item || item.role !== 'customer' || typeof evidence !== 'string') continue;
    const offset = item.text.toLowerCase().indexOf(evidence.toLowerCase());
    if (offset < 0 || evidence.trim() === '') continue; // not a quote: the model made it up
    const signal = SignalSchema.safeParse({ ...entry, evidence: item.text.slice(offset, offset + evidence.length), offset });
    if (signal.success && !FROM_TOOLS(signal.data)) signals.push(signal.data);
  }
  return signals;
}
