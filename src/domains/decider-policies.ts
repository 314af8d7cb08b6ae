/**
 * The hand-off decider's policy of each domain, without loading the domain: `baton decide` needs
 * only the thresholds, the write tools and the queues, not tau2-bench's data.
 */
import { DeciderPolicySchema, type DeciderPolicy } from '../core/index.js';
import { BILLING_DECIDER_POLICY } from './billing/index.js';
import { DOMAIN_NAMES, type DomainName } from './domain.js';
import type { Toolset } from './episode.js';
import { AIRLINE_TOOLSET } from './tau2/airline/index.js';
import { retailToolset } from './tau2/retail/index.js';

/** The one human queue tau2-bench's transfer goes to (upstream has one, unnamed). */
export const TAU2_HUMAN_QUEUE_ID = 'queue_human_agents';

/** tau2-bench's decider policy: one team takes every hand-off; its policies state no amount limit. */
export function tau2DeciderPolicy<Db>(toolset: Toolset<Db>): DeciderPolicy {
  return DeciderPolicySchema.parse({
    defaultTarget: TAU2_HUMAN_QUEUE_ID,
    writeTools: [...toolset.tools.values()].filter((t) => t.kind === 'write').map((t) => t.name),
    readTools: [...toolset.tools.values()].filter((t) => t.kind !== 'write').map((t) => t.name),
  });
}

/** Whether `name` is a domain Baton knows. */
export const isDomainName = (name: string): name is DomainName => (DOMAIN_NAMES as readonly string[]).includes(name);

/** The decider policy of a domain by name; the same object its loaded `Domain` carries (retail: the current tools). */
export function domainDeciderPolicy(name: DomainName): DeciderPolicy {
  if (name === 'billing') return BILLING_DECIDER_POLICY;
  return name === 'airline' ? tau2DeciderPolicy(AIRLINE_TOOLSET) : tau2DeciderPolicy(retailToolset('current'));
}
