/**
 * Loads a domain by name: billing ships with Baton (no download, no key); airline and retail are
 * tau2-bench's, loaded from `--tau2-dir`, `BATON_TAU2_DIR`, or the verified download cache.
 */
import type { Domain, DomainName } from './domain.js';

export interface LoadDomainOptions {
  /** Task version: `current` (default) or `release-37199f3` for tau2-bench; billing has `v1`. */
  version?: string;
  /** A folder with tau2-bench's data (else `BATON_TAU2_DIR`, else the download cache). */
  tau2Dir?: string;
}

/** The task versions each domain has, the default first. */
export const DOMAIN_VERSIONS: Readonly<Record<DomainName, readonly string[]>> = {
  airline: ['current', 'release-37199f3'],
  retail: ['current', 'release-37199f3'],
  billing: ['v1'],
};

/**
 * Loads a domain once per process and folder: a domain is immutable (its database is deeply
 * frozen; tasks, tools and policy are read only), and what it learns while scoring — each task's
 * gold hash, each record's serialisation — is worth keeping across runs in one process.
 */
const loaded = new Map<string, Promise<Domain>>();

export async function loadDomain(name: DomainName, options: LoadDomainOptions = {}): Promise<Domain> {
  const key = JSON.stringify([name, options.version ?? null, options.tau2Dir ?? process.env['BATON_TAU2_DIR'] ?? null]);
  let domain = loaded.get(key);
  if (!domain) {
    domain = loadDomainAfresh(name, options);
    loaded.set(key, domain);
    // A failed load (a missing folder, no network) is not remembered: the next call tries again.
    domain.catch(() => loaded.delete(key));
  }
  return domain;
}

async function loadDomainAfresh(name: DomainName, options: LoadDomainOptions): Promise<Domain> {
  const versions = DOMAIN_VERSIONS[name];
  const version = options.version ?? versions[0];
  if (version === undefined || !versions.includes(version)) {
    throw new Error(`the ${name} domain has no task version "${String(options.version)}" (it has: ${versions.join(', ')})`);
  }
  if (name === 'billing') {
    const { loadBillingDomain } = await import('./billing/index.js');
    return loadBillingDomain() as Domain;
  }
  const { resolveTau2Data } = await import('./tau2/tau2-data.js');
  const { loadTau2Domain } = await import('./tau2/tau2-domain.js');
  const data = await resolveTau2Data(options.tau2Dir ? { dir: options.tau2Dir } : {});
  return loadTau2Domain(data, name, { version: version as 'current' | 'release-37199f3' });
}
