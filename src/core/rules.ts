/**
 * Deterministic rules for high-risk decisions (refund or cancellation eligibility, …), registered
 * by a domain as versioned code. A rule guards one write tool: before the tool runs, the rule
 * sees the call's arguments and the facts the tool log has established; it allows, denies with a
 * reason, or asks for the facts it is missing. The answer goes back to the agent as the tool's
 * result, so the agent cannot reach an outcome without the required facts.
 */
export type RuleVerdict = { decision: 'allow' } | { decision: 'deny'; reason: string } | { decision: 'need_more_info'; missing: string[] };

/** Facts established by successful tool calls: field name → values seen (latest last). */
export type Findings = ReadonlyMap<string, readonly unknown[]>;

export interface DecisionRule {
  /** Stable id, e.g. `refund_eligibility`. */
  id: string;
  /** Bumped whenever the rule's logic changes; recorded with every verdict. */
  version: number;
  /** The write tool this rule guards. */
  tool: string;
  evaluate(args: Readonly<Record<string, unknown>>, findings: Findings): RuleVerdict;
}

/** The tool result an agent sees for a rule's verdict when the call did not go ahead. */
export function ruleVerdictText(rule: DecisionRule, verdict: Exclude<RuleVerdict, { decision: 'allow' }>): string {
  const tag = `${rule.id}@v${rule.version}`;
  return verdict.decision === 'deny'
    ? `Refused by rule ${tag}: ${verdict.reason}`
    : `Rule ${tag} needs more information before ${rule.tool} can run. Missing: ${verdict.missing.join(', ')}`;
}
