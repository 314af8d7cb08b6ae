import {
  createIdGenerator,
  DEFAULT_OWNERSHIP_POLICY,
  type AgentId,
  type Clock,
  type IdGenerator,
  type OwnershipPolicy,
} from '../core/index.js';
import { createGateway, type Gateway } from '../runtime/gateway.js';
import type { Store } from '../store/store.js';

/** The agent new conversations get in tests and benchmarks. */
export const TEST_AGENT = 'agent_support' as AgentId;

/**
 * A gateway over `store` with real time and random ids (unique across processes), unless
 * `ids`, `clock` or `policy` are given.
 */
export function gatewayFor(store: Store, options: { ids?: IdGenerator; clock?: Clock; policy?: OwnershipPolicy } = {}): Gateway {
  const clock = options.clock ?? { now: Date.now };
  return createGateway({
    store,
    clock,
    ids: options.ids ?? createIdGenerator({ now: clock.now, random: Math.random }),
    policy: options.policy ?? DEFAULT_OWNERSHIP_POLICY,
    defaultAgent: TEST_AGENT,
  });
}
