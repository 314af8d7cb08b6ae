import type { DecisionRule, Findings, RuleVerdict } from '../../core/index.js';
import { AUTONOMOUS_REFUND_LIMIT_CENTS, formatCents } from './billing-db.js';

/** An amount with cents (`72.40`), or as given when it has more decimals (so `50.001` is not shown as `50.00`). */
const shown = (amount: number) => (Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6 ? amount.toFixed(2) : String(amount));

/**
 * `refund_limit`, guarding `refund_charge`: the agent may refund at most `limitCents`, and only a
 * charge the tool log has shown it (so the amount it names was read, not recalled). Denials point
 * at the hand-off the policy prescribes. It checks before the tool runs, so the agent learns the
 * limit even where the tool would have refused for another reason first. Version 1 is the
 * policy's limit; a drift that lowers it (`billing-drift.ts`) brings version 2.
 */
export function refundLimitRuleAt(limitCents: number, version: number): DecisionRule {
  const limit = formatCents(limitCents);
  return {
    id: 'refund_limit',
    version,
    tool: 'refund_charge',
    evaluate(args: Readonly<Record<string, unknown>>, findings: Findings): RuleVerdict {
      const amount = args['amount'];
      if (typeof amount !== 'number' || !Number.isFinite(amount)) return { decision: 'need_more_info', missing: ['amount'] };
      // Compared in cents with a tolerance for binary fractions: 50.01 * 100 is 5001.000000000001.
      if (amount * 100 - limitCents > 1e-6) {
        return {
          decision: 'deny',
          reason: `a refund of ${shown(amount)} is above the autonomous limit of ${limit}; hand off to queue_billing with reason value_threshold`,
        };
      }
      const seen = findings.get('charge_id') ?? [];
      if (!seen.includes(args['charge_id'])) {
        return { decision: 'need_more_info', missing: ['charge_id (look the charge up with list_charges or get_charge_details first)'] };
      }
      return { decision: 'allow' };
    },
  };
}

/** `refund_limit@v1`: the policy's autonomous limit. */
export const refundLimitRule: DecisionRule = refundLimitRuleAt(AUTONOMOUS_REFUND_LIMIT_CENTS, 1);

/** Billing's decision rules. */
export const BILLING_RULES: readonly DecisionRule[] = [refundLimitRule];
