import type { Policy, PolicyFailure, PolicyRequest, PolicyResponse } from '../core/index.js';

/** Failures that another provider may not have; a bad request would fail everywhere. */
const FALL_THROUGH: ReadonlySet<PolicyFailure['kind']> = new Set(['timeout', 'rate_limited', 'server_error', 'network', 'exhausted']);

/**
 * Provider fallback: asks each policy in turn until one answers. Only provider-side failures fall
 * through; an aborted request (the turn's time is up) or a bad request ends the attempt. When all
 * fail, the last failure is returned and the harness hands off with `provider_down`.
 */
export function fallbackPolicy(policies: readonly Policy[]): Policy {
  if (policies.length === 0) throw new Error('fallbackPolicy needs at least one policy');
  return {
    name: policies.map((p) => p.name).join(' → '),
    async next(request: PolicyRequest): Promise<PolicyResponse> {
      let last: PolicyResponse | undefined;
      for (const policy of policies) {
        last = await policy.next(request);
        if (last.ok || !FALL_THROUGH.has(last.failure.kind)) return last;
      }
      return last!;
    },
  };
}
