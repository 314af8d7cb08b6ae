/**
 * `baton tasks generate | stats | show`: the lab's labelled hand-off variants. Generate writes
 * the committed manifest (labels, counts, checksum; never tau2-bench text); stats counts the
 * variants per domain; show renders one variant with its label and script. Billing needs no
 * download; airline and retail need tau2-bench's data (`--tau2-dir` or `BATON_TAU2_DIR`).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMAIN_NAMES, type Domain, type DomainName } from '../domains/domain.js';
import { loadDomain } from '../domains/load-domain.js';
import { Tau2DataError } from '../domains/tau2/tau2-data.js';
import {
  buildManifest,
  generateVariants,
  HANDOFF_VARIANT_SEED,
  renderManifest,
  renderVariant,
  variantStats,
  type VariantCounts,
} from '../lab/variants/index.js';

/** The committed manifest; the same relative path from `src/cli/` and `dist/cli/`. */
export const HANDOFF_MANIFEST_FILE = new URL('../../data/lab/handoff-manifest.json', import.meta.url);

export interface TasksOptions {
  /** A folder with tau2-bench's data (else `BATON_TAU2_DIR`, else the download cache). */
  tau2Dir?: string;
  /** The generator's seed (default `HANDOFF_VARIANT_SEED`, the committed manifest's). */
  seed?: number;
}

/** Loads the domains the lab generates from (every domain unless some are named). */
export async function loadLabDomains(options: TasksOptions = {}, names: readonly DomainName[] = DOMAIN_NAMES): Promise<Domain[]> {
  const domains: Domain[] = [];
  for (const name of names) domains.push(await loadDomain(name, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}));
  return domains;
}

/** What `tasks generate` did. */
export interface TasksGenerateSummary {
  path: string;
  seed: number;
  checksum: string;
  /** Whether the file's content changed (false: it was already up to date). */
  changed: boolean;
  total: number;
  counts: Partial<Record<DomainName, VariantCounts>>;
}

/** Generates every domain's variants and writes (or updates) the manifest. */
export async function tasksGenerate(options: TasksOptions & { out?: string } = {}): Promise<TasksGenerateSummary> {
  const seed = options.seed ?? HANDOFF_VARIANT_SEED;
  const domains = await loadLabDomains(options);
  const variants = generateVariants(domains, { seed });
  const manifest = buildManifest(variants, domains, seed);
  const path = options.out ?? fileURLToPath(HANDOFF_MANIFEST_FILE);
  const text = renderManifest(manifest);
  const changed = !existsSync(path) || readFileSync(path, 'utf8') !== text;
  if (changed) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { path, seed, checksum: manifest.checksum.value, changed, total: variants.length, counts: manifest.counts };
}

/** Counts per domain: `{"<domain>": {total, positives, negatives, by_kind, by_split}}`. */
export async function tasksStats(
  options: TasksOptions & { domains?: readonly DomainName[] } = {},
): Promise<Partial<Record<DomainName, VariantCounts>>> {
  const domains = await loadLabDomains(options, options.domains ?? DOMAIN_NAMES);
  return variantStats(generateVariants(domains, { seed: options.seed ?? HANDOFF_VARIANT_SEED }));
}

/**
 * The counts of every domain whose data is at hand: billing always (it ships with Baton), airline
 * and retail when tau2-bench's data can be found. `skipped` says which were left out, and why.
 */
export async function tasksStatsAvailable(
  options: TasksOptions = {},
): Promise<{ stats: Partial<Record<DomainName, VariantCounts>>; skipped: { domains: DomainName[]; reason: string } | null }> {
  const domains: Domain[] = [];
  const skipped: DomainName[] = [];
  let reason = '';
  for (const name of DOMAIN_NAMES) {
    try {
      domains.push(await loadDomain(name, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {}));
    } catch (error) {
      if (!(error instanceof Tau2DataError)) throw error;
      skipped.push(name);
      reason = error.message;
    }
  }
  const stats = variantStats(generateVariants(domains, { seed: options.seed ?? HANDOFF_VARIANT_SEED }));
  return { stats, skipped: skipped.length > 0 ? { domains: skipped, reason } : null };
}

/** One variant, rendered for reading (its label, rule, outage and script). Loads only the variant's domain. */
export async function tasksShow(id: string, options: TasksOptions = {}): Promise<string> {
  const name = id.split('/')[0] as DomainName;
  if (!DOMAIN_NAMES.includes(name)) {
    throw new Error(`"${id}" is not a variant id: ids are <domain>/<source task>/<kind>, e.g. billing/billing_026/frustrated_in_scope`);
  }
  const variants = generateVariants(await loadLabDomains(options, [name]), { seed: options.seed ?? HANDOFF_VARIANT_SEED });
  const variant = variants.find((v) => v.id === id);
  if (!variant) {
    const source = id.split('/').slice(0, 2).join('/');
    const siblings = variants.filter((v) => v.id.startsWith(`${source}/`)).map((v) => v.id);
    throw new Error(
      `no variant ${id}${siblings.length > 0 ? `; ${source} has: ${siblings.join(', ')}` : ` (the ${name} domain has ${variants.length} variants)`}`,
    );
  }
  return renderVariant(variant);
}
