import {
  DEFAULT_DECIDER_POLICY,
  decideHandoff,
  lexiconSignalExtractor,
  SAFETY_RESPONSE,
  type DeciderPolicy,
  type SignalExtractor,
  type TranscriptItem,
} from '../core/index.js';
import type { DeciderPhase, DeciderVerdict } from './agent-loop.js';

/**
 * The decider as the harness consults it: signals from the configured extractor (the offline
 * lexicon by default, or an LLM classifier), thresholds from the domain's policy, and the fixed
 * safety response when a safety signal fires (the model is not called then).
 *
 * The autonomous limit is a question about a write before it runs: only the proposed write's
 * amount counts, and only then (`before_write`). A write that already ran was under the limit or
 * approved by a human, so it is no reason to hand off afterwards.
 */
export function harnessDecider(
  policy: DeciderPolicy = DEFAULT_DECIDER_POLICY,
  extractor: SignalExtractor = lexiconSignalExtractor,
): (items: readonly TranscriptItem[], context: { phase: DeciderPhase }) => Promise<DeciderVerdict> {
  return async (items, { phase }) => {
    const signals = (await extractor.extract(items, policy)).filter(
      (s) => s.kind !== 'write_amount' || (phase === 'before_write' && s.index === items.length - 1),
    );
    const decision = decideHandoff(signals, policy);
    return {
      handoff: decision.handoff,
      reason: decision.reason,
      target: decision.target,
      evidence: decision.evidence,
      response: decision.reason === 'safety' ? SAFETY_RESPONSE : null,
    };
  };
}
