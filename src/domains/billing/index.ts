/**
 * `billing`, Baton's own customer-service domain: a seeded database of Kestrel Home customers,
 * one-time-code verification, duplicate refunds up to an autonomous limit, e-mail and
 * subscription changes, topics reserved for human queues, and committed tasks labelled with the
 * right hand-off. It needs no download and no key.
 */
import { readFileSync } from 'node:fs';
import { DeciderPolicySchema, type DeciderPolicy } from '../../core/index.js';
import type { Domain, DomainToolInfo } from '../domain.js';
import { createEpisode, freezeDb } from '../episode.js';
import { createCanonicalHasher } from '../tau2/canonical-db.js';
import { AUTONOMOUS_REFUND_LIMIT_CENTS, generateBillingDb, type BillingDb } from './billing-db.js';
import { BILLING_POLICY } from './billing-policy.js';
import { BILLING_QUEUES } from './billing-queues.js';
import { BILLING_RULES } from './billing-rules.js';
import { BILLING_TOOL_SCHEMAS } from './billing-schemas.js';
import { billingTaskOf, BILLING_TASKS_VERSION, parseBillingTasks } from './billing-tasks.js';
import { BILLING_TOOLSET } from './billing-tools.js';

export * from './billing-db.js';
export { BILLING_POLICY } from './billing-policy.js';
export { BILLING_HANDOFF_REASONS, BILLING_QUEUE_IDS, BILLING_QUEUES } from './billing-queues.js';
export { BILLING_RULES, refundLimitRule } from './billing-rules.js';
export { BILLING_TOOL_SCHEMAS } from './billing-schemas.js';
export { billingTaskOf, BILLING_TASKS_VERSION, parseBillingTasks, type BillingTaskRecord } from './billing-tasks.js';
export { BILLING_ERRORS, BILLING_TOOLS, BILLING_TOOLSET } from './billing-tools.js';

/**
 * What the hand-off decider takes from billing's policy: refunds above 50.00 go to billing
 * specialists, each reserved topic to its team, everything else the decider hands off (a request
 * for a person, repeated tool failures, loops) to billing specialists.
 */
export const BILLING_DECIDER_POLICY: DeciderPolicy = DeciderPolicySchema.parse({
  autonomousLimit: AUTONOMOUS_REFUND_LIMIT_CENTS / 100,
  amountArgument: 'amount',
  writeTools: [...BILLING_TOOLSET.tools.values()].filter((t) => t.kind === 'write').map((t) => t.name),
  readTools: [...BILLING_TOOLSET.tools.values()].filter((t) => t.kind !== 'write').map((t) => t.name),
  targets: { customer_request: 'queue_billing', value_threshold: 'queue_billing', no_capability: 'queue_billing' },
  topicTargets: { complaint: 'queue_complaints', bereavement: 'queue_bereavement', legal: 'queue_legal' },
  defaultTarget: 'queue_billing',
});

/** The seed of the database the committed tasks are written against. */
export const BILLING_SEED = 20250615;

/** The committed task file; the same relative path from `src/domains/billing/` and `dist/domains/billing/`. */
export const BILLING_TASKS_FILE = new URL('../../../data/billing/tasks.json', import.meta.url);

/**
 * tau2-bench's canonical hash for billing databases that share structure with `base` (the frozen
 * initial database). Money is integer cents, so no field is float-typed.
 */
export function billingDbHasher(base: BillingDb): (db: BillingDb) => string {
  const hash = createCanonicalHasher(() => false, base as unknown as Record<string, unknown>);
  return (db) => hash(db as unknown as Record<string, unknown>);
}

function toolInfos(): DomainToolInfo[] {
  return [...BILLING_TOOLSET.tools.values()].map((tool) => {
    const schema = BILLING_TOOL_SCHEMAS[tool.name];
    if (!schema) throw new Error(`no argument schema for billing tool ${tool.name}`);
    // Verifying records that the customer read back their code: there is nothing to confirm.
    return {
      name: tool.name,
      kind: tool.kind,
      description: tool.description,
      schema,
      ...(tool.name === 'verify_customer' ? { needsConfirmation: false } : {}),
    };
  });
}

/**
 * Loads the billing domain on the database of `seed` (default `BILLING_SEED`). The committed
 * tasks name customers, charges and codes of that database, so they come only with the default
 * seed; another seed gives the same tools and policy on other data, with no tasks.
 */
export function loadBillingDomain(options: { seed?: number } = {}): Domain<BillingDb> {
  const seed = options.seed ?? BILLING_SEED;
  const initialDb = freezeDb(generateBillingDb(seed));
  const hash = billingDbHasher(initialDb);
  const tasks = seed === BILLING_SEED ? parseBillingTasks(readFileSync(BILLING_TASKS_FILE, 'utf8')).map(billingTaskOf) : [];
  return {
    name: 'billing',
    version: BILLING_TASKS_VERSION,
    source: `baton billing ${BILLING_TASKS_VERSION} (seed ${seed})`,
    policy: BILLING_POLICY,
    tools: toolInfos(),
    transferTool: 'handoff',
    queues: BILLING_QUEUES,
    rules: BILLING_RULES,
    deciderPolicy: BILLING_DECIDER_POLICY,
    // Finding the customer by e-mail is not authentication: only the one-time code is.
    authentication: { mode: 'check' },
    initialDb,
    newEpisode: () => createEpisode(initialDb, BILLING_TOOLSET, hash),
    isWrite: (tool) => BILLING_TOOLSET.tools.get(tool)?.kind === 'write',
    tasks,
  };
}
export {
  BILLING_DRIFT_EVENTS,
  billingDriftTasks,
  DRIFT_PRICE_RISE,
  DRIFT_RECALLED_PLAN,
  DRIFT_REFUND_LIMIT_CENTS,
  type DriftTask,
} from './billing-drift.js';
