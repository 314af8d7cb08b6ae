/**
 * The committed record of the generated variants: ids, kinds, labels and splits, counts, the
 * seed, the data versions, and a SHA-256 checksum of the full generated set. It carries no text
 * derived from tau2-bench (no requests, facts, beats or rules), so it can be committed; the
 * checksum proves that a run regenerated exactly the set it describes.
 */
import { createHash } from 'node:crypto';
import { DOMAIN_NAMES, type Domain, type DomainName } from '../../domains/domain.js';
import { TAU2_COMMIT } from '../../domains/tau2/tau2-manifest.js';
import { NEGATIVE_KINDS, POSITIVE_KINDS, type HandoffVariant, type VariantKind, type VariantSplit } from '../variant.js';

/** Counts of one domain's variants (the shape `baton tasks stats --json` prints). */
export interface VariantCounts {
  total: number;
  positives: number;
  negatives: number;
  by_kind: Partial<Record<VariantKind, number>>;
  by_split: Partial<Record<VariantSplit, number>>;
}

/** One variant as the manifest records it: labels only, no text. */
export type ManifestEntry = Pick<
  HandoffVariant,
  'id' | 'domain' | 'source' | 'kind' | 'split' | 'should_transfer' | 'expected_target' | 'expected_reason' | 'due_turn'
>;

export interface HandoffManifest {
  description: string;
  seed: number;
  /** Where each domain's source tasks came from, and their task version. */
  sources: Partial<Record<DomainName, { source: string; task_version: string; source_tasks: number }>>;
  tau2: { commit: string; task_version: string | null };
  checksum: { algorithm: 'sha256'; of: string; value: string };
  counts: Partial<Record<DomainName, VariantCounts>> & {
    'airline+retail'?: { total: number; positives: number; negatives: number; negative_share: number };
  };
  variants: ManifestEntry[];
}

/** JSON with object keys sorted at every level and no whitespace: one text for one value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (value === undefined) return 'null';
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 (hex) of the canonical JSON of the variants, in their order, texts included. */
export function variantsChecksum(variants: readonly HandoffVariant[]): string {
  return createHash('sha256').update(canonicalJson(variants)).digest('hex');
}

const KIND_ORDER: readonly VariantKind[] = [...POSITIVE_KINDS, ...NEGATIVE_KINDS];
const SPLIT_ORDER: readonly VariantSplit[] = ['train', 'dev', 'test'];

/** Counts per domain, kinds and splits in a fixed order (absent ones left out). */
export function variantStats(variants: readonly HandoffVariant[]): Partial<Record<DomainName, VariantCounts>> {
  const stats: Partial<Record<DomainName, VariantCounts>> = {};
  for (const domain of DOMAIN_NAMES) {
    const mine = variants.filter((v) => v.domain === domain);
    if (mine.length === 0) continue;
    const count = <K extends string>(order: readonly K[], of: (v: HandoffVariant) => string) =>
      Object.fromEntries(order.map((k) => [k, mine.filter((v) => of(v) === k).length]).filter(([, n]) => n !== 0)) as Partial<
        Record<K, number>
      >;
    stats[domain] = {
      total: mine.length,
      positives: mine.filter((v) => v.should_transfer).length,
      negatives: mine.filter((v) => !v.should_transfer).length,
      by_kind: count(KIND_ORDER, (v) => v.kind),
      by_split: count(SPLIT_ORDER, (v) => v.split),
    };
  }
  return stats;
}

/** The manifest of a generated set. `domains` are the ones it was generated from. */
export function buildManifest(variants: readonly HandoffVariant[], domains: readonly Domain[], seed: number): HandoffManifest {
  const ordered = DOMAIN_NAMES.map((name) => domains.find((d) => d.name === name)).filter((d) => d !== undefined);
  const counts: HandoffManifest['counts'] = variantStats(variants);
  const tau2 = variants.filter((v) => v.domain !== 'billing');
  if (tau2.length > 0) {
    const negatives = tau2.filter((v) => !v.should_transfer).length;
    counts['airline+retail'] = {
      total: tau2.length,
      positives: tau2.length - negatives,
      negatives,
      negative_share: Math.round((negatives / tau2.length) * 1000) / 1000,
    };
  }
  const tau2Domain = ordered.find((d) => d.name !== 'billing');
  return {
    description:
      'Labelled hand-off variants of the airline, retail and billing tasks (src/lab/variants; regenerate with `baton tasks generate`). ' +
      'Labels only: the scripts hold tau2-bench text and are generated at run time, never committed; the checksum covers them.',
    seed,
    sources: Object.fromEntries(
      ordered.map((d) => [d.name, { source: d.source, task_version: d.version, source_tasks: d.tasks.length }]),
    ) as HandoffManifest['sources'],
    tau2: { commit: TAU2_COMMIT, task_version: tau2Domain?.version ?? null },
    checksum: {
      algorithm: 'sha256',
      of: 'canonical JSON (sorted keys, no whitespace) of the full list of generated variants in manifest order, texts included',
      value: variantsChecksum(variants),
    },
    counts,
    variants: variants.map((v) => ({
      id: v.id,
      domain: v.domain,
      source: v.source,
      kind: v.kind,
      split: v.split,
      should_transfer: v.should_transfer,
      expected_target: v.expected_target,
      expected_reason: v.expected_reason,
      due_turn: v.due_turn,
    })),
  };
}

/** The manifest as the committed file holds it (two-space JSON, as Prettier leaves it). */
export function renderManifest(manifest: HandoffManifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}
