import {
  DEFAULT_DECIDER_POLICY,
  decideHandoff,
  lexiconSignalExtractor,
  SAFETY_RESPONSE,
  type DeciderPolicy,
  type SignalExtractor,
  type TranscriptItem,
} from '../core/index.js';
import type { DeciderVerdict } from './agent-loop.js';

/**
 * The decider as the harness consults it: signals from the configured extractor (the offline
 * lexicon by default, or an LLM classifier), thresholds from the domain's policy, and the fixed
 * safety response when a safety signal fires (the model is not called then).
 */
export function harnessDecider(
  policy: DeciderPolicy = DEFAULT_DECIDER_POLICY,
  extractor: SignalExtractor = lexiconSignalExtractor,
): (items: readonly TranscriptItem[]) => Promise<DeciderVerdict> {
  return async (items) => {
    const decision = decideHandoff(await extractor.extract(items, policy), policy);
    return {
      handoff: decision.handoff,
      reason: decision.reason,
      target: decision.target,
      evidence: decision.evidence,
      response: decision.reason === 'safety' ? SAFETY_RESPONSE : null,
    };
  };
}
