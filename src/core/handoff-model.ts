/**
 * The shipped classifier: the weights `scripts/train-decider-model.ts` wrote to
 * `handoff-model-data.ts`, loaded once, on first use.
 */
import { loadHandoffModel, type HandoffModel } from './handoff-classifier.js';
import { HANDOFF_MODEL_DATA } from './handoff-model-data.js';

let loaded: HandoffModel | undefined;

/** The model the default extractor reads with (validated on first use; a malformed file throws). */
export function defaultHandoffModel(): HandoffModel {
  return (loaded ??= loadHandoffModel(HANDOFF_MODEL_DATA));
}
