/**
 * Facts about the tool calls of one trajectory that the analysis reads in several places: which
 * calls hand off, which match a gold action, which succeeded, and which established the
 * customer's identity.
 */
import { isRedactionMarker } from '../core/index.js';
import { isDeepStrictEqual } from 'node:util';
import type { Domain, GoldAction } from '../domains/domain.js';
import { TRANSFER_TOOLS } from '../domains/evaluator.js';
import { toolCallsOf, type TrajectoryMessage, type TrajectoryToolCall } from '../domains/trajectory.js';
import { metricRulesOf } from './domain-rules.js';

/** A call that hands off: the domain's transfer tool, or the harness's hand-off (or tau2-bench's). */
export const isTransferCall = (domain: Pick<Domain, 'transferTool'>, name: string) =>
  name === domain.transferTool || TRANSFER_TOOLS.has(name);

/** Same name, and equal values on `compareArgs`, or else on every argument the call has: the evaluator's (tau2-bench's) rule. */
export function matchesGold(action: GoldAction, call: TrajectoryToolCall): boolean {
  if (action.name !== call.name) return false;
  const keys = action.compareArgs ?? Object.keys(call.arguments);
  // A value the record never kept (redacted at rest) cannot be shown to differ.
  return keys.every(
    (k) =>
      (typeof call.arguments[k] === 'string' && isRedactionMarker(call.arguments[k])) ||
      isDeepStrictEqual(call.arguments[k], action.arguments[k]),
  );
}

/** Results of tool calls by call id. */
export function toolResults(messages: readonly TrajectoryMessage[]): Map<string, Extract<TrajectoryMessage, { role: 'tool' }>> {
  const results = new Map<string, Extract<TrajectoryMessage, { role: 'tool' }>>();
  for (const m of messages) if (m.role === 'tool') results.set(m.id, m);
  return results;
}

/** A call succeeded when its result is there, is not an error, and was not refused by the harness. */
export function succeeded(results: ReturnType<typeof toolResults>, id: string): boolean {
  const r = results.get(id);
  return r !== undefined && !r.error && r.executed !== false;
}

const userTextBefore = (messages: readonly TrajectoryMessage[], index: number): string =>
  messages
    .slice(0, index)
    .flatMap((m) => (m.role === 'user' && m.content ? [m.content] : []))
    .join('\n')
    .toLowerCase();

/**
 * The ordinal of the first tool call that established the customer's identity (by the domain's
 * rules: retail's e-mail or name/zip lookup, airline's `get_user_details` on a user id the customer
 * gave, billing's `verify_customer`), or null.
 */
export function authenticationOrdinal(domain: Domain, messages: readonly TrajectoryMessage[]): number | null {
  const rules = metricRulesOf(domain.name);
  const results = toolResults(messages);
  for (const { call, message, ordinal } of toolCallsOf(messages)) {
    if (call.requestor !== 'assistant' || !rules.authTools.includes(call.name) || !succeeded(results, call.id)) continue;
    if (rules.authArgumentGivenByCustomer !== null) {
      const given = call.arguments[rules.authArgumentGivenByCustomer];
      if (typeof given !== 'string' || given.trim() === '' || !userTextBefore(messages, message).includes(given.trim().toLowerCase()))
        continue;
    }
    return ordinal;
  }
  return null;
}
