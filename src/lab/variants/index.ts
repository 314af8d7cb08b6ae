/** The hand-off variant generator: labelled variants of every source task, and their committed manifest. */
export { extractFacts, ASKED_BY, type FactSources } from './facts.js';
export { firstPersonRequest, toFirstPerson } from './first-person.js';
export {
  baseScript,
  nativeKind,
  generateVariants,
  HANDOFF_VARIANT_SEED,
  identifyTurn,
  KINDS_PER_SOURCE,
  kindsFor,
  sourceSplits,
  VARIANT_KINDS,
} from './generate.js';
export {
  buildManifest,
  canonicalJson,
  renderManifest,
  variantsChecksum,
  variantStats,
  type HandoffManifest,
  type ManifestEntry,
  type VariantCounts,
} from './manifest.js';
export { renderVariant } from './render.js';
