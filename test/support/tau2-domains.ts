import type { Domain } from '../../src/domains/domain.js';
import { resolveTau2Data } from '../../src/domains/tau2/tau2-data.js';
import { loadTau2Domain } from '../../src/domains/tau2/tau2-domain.js';
import type { Tau2TaskVersion } from '../../src/domains/tau2/tau2-tasks.js';
import { tau2DirForTests } from './tau2-dir.js';

const cache = new Map<string, Promise<Domain>>();

/** A tau2-bench domain loaded once per test file from the shared data. */
export function tau2Domain(name: 'airline' | 'retail', version: Tau2TaskVersion = 'current'): Promise<Domain> {
  const key = `${name}/${version}`;
  let domain = cache.get(key);
  if (!domain) {
    domain = resolveTau2Data({ dir: tau2DirForTests() }).then((data) => loadTau2Domain(data, name, { version }));
    cache.set(key, domain);
  }
  return domain;
}
