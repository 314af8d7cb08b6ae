/**
 * Policy drift: a domain declares events that change its rules mid-episode (a refund limit drops,
 * a product is recalled, a queue closes), and a task schedules one at a customer turn, so that an
 * agent cannot memorise one policy. From that turn on the agent is told (a system notice in its
 * prompt), the tools refuse what the new policy forbids, the decision rules are the new ones, and
 * the evaluator scores against the new policy: the agent's writes replay with the event fired
 * where it fired in the run, the gold actions with it fired from the start.
 */
import type { DeciderPolicy, DecisionRule, Findings, RuleVerdict } from '../core/index.js';
import type { DomainTask, Episode } from './domain.js';
import type { ToolCallResult } from './domain-tool.js';

/** One change of policy a domain can undergo. */
export interface DriftEvent<Db = unknown> {
  /** A stable id (`refund_limit_lowered`). */
  id: string;
  /** What the agent is told from the event's turn on. */
  notice: string;
  /**
   * Refuses a call the new policy forbids: the error text (without `Error: `), or null to let it
   * run. `db` is the episode's database as the call would find it (a reservation's insurance, say).
   */
  refuse?(name: string, args: Readonly<Record<string, unknown>>, db: Db): string | null;
  /** Changes the database as the event fires (a plan's new price). */
  apply?(draft: Db): void;
  /** Decision rules of the new policy: each replaces the domain's rule of the same id, or is added. */
  rules?: readonly DecisionRule[];
  /** What the hand-off decider reads of the new policy (a closed queue's topics routed elsewhere, a new limit). */
  deciderPolicy?(policy: DeciderPolicy): DeciderPolicy;
}

/** The decider's policy once `fired` have fired, in order. */
export function driftedDeciderPolicy(policy: DeciderPolicy, fired: readonly DriftEvent[]): DeciderPolicy {
  return fired.reduce((p, e) => e.deciderPolicy?.(p) ?? p, policy);
}

/** A drift a task schedules: the event, and the customer turn (1-based) from which it holds. */
export interface ScheduledDrift {
  event: DriftEvent;
  turn: number;
}

/** One pair of a drift: a task as committed (before) and under the event (after), the event scheduled at `turn`. */
export interface DriftTask<Db = unknown> {
  event: DriftEvent<Db>;
  /** The customer turn (1-based) the event is scheduled at. */
  turn: number;
  before: DomainTask;
  after: DomainTask;
}

/** Throws unless `turn` is a customer turn a drift can be scheduled at. */
export function checkDriftTurn(turn: number): void {
  if (!(Number.isInteger(turn) && turn >= 1)) throw new Error(`a drift is scheduled at a customer turn ≥ 1, got ${turn}`);
}

/** The heading of the notices in the agent's system prompt. */
export const DRIFT_NOTICE_HEADING = 'POLICY UPDATE (effective now; it overrides the policy above where they differ):';

/** The system prompt with the notices of the events fired so far. */
export function withDriftNotices(system: string, events: readonly DriftEvent[]): string {
  if (events.length === 0) return system;
  return `${system}\n\n${DRIFT_NOTICE_HEADING}\n${events.map((e) => `- ${e.notice}`).join('\n')}`;
}

/**
 * An episode whose policy can drift: calls go to `base` until {@link fire}, then each fired event
 * may refuse them first. Firing applies the event's database change.
 */
export interface DriftingEpisode<Db = unknown> extends Episode<Db> {
  fire(event: DriftEvent<Db>): void;
  readonly fired: readonly DriftEvent<Db>[];
}

export function driftingEpisode<Db>(base: Episode<Db>): DriftingEpisode<Db> {
  const fired: DriftEvent<Db>[] = [];
  return {
    get db() {
      return base.db;
    },
    hash: () => base.hash(),
    apply: (change) => base.apply(change),
    call(name, args): ToolCallResult {
      for (const event of fired) {
        const refused = event.refuse?.(name, args, base.db) ?? null;
        if (refused !== null) return { output: `Error: ${refused}`, error: true };
      }
      return base.call(name, args);
    },
    fire(event) {
      if (fired.includes(event)) return;
      fired.push(event);
      if (event.apply) base.apply(event.apply);
    },
    fired,
  };
}

/**
 * The decision rules in force: the domain's, each replaced by a fired event's rule of the same id,
 * and the events' new rules (which allow everything until their event fires). `fired` is read at
 * every call, so the same rule objects serve before and after the drift.
 */
export function driftingRules(
  rules: readonly DecisionRule[],
  events: readonly DriftEvent[],
  fired: () => readonly DriftEvent[],
): DecisionRule[] {
  const current = (id: string, fallback: DecisionRule | null): DecisionRule | null => {
    let rule = fallback;
    for (const event of fired()) for (const r of event.rules ?? []) if (r.id === id) rule = r;
    return rule;
  };
  const ids = new Set(rules.map((r) => r.id));
  const added = events.flatMap((e) => (e.rules ?? []).filter((r) => !ids.has(r.id)));
  const allow: RuleVerdict = { decision: 'allow' };
  const wrap = (rule: DecisionRule, fallback: DecisionRule | null): DecisionRule => ({
    id: rule.id,
    // The version of the rule in force, as every verdict records it.
    get version() {
      return current(rule.id, fallback)?.version ?? rule.version;
    },
    tool: rule.tool,
    evaluate: (args: Readonly<Record<string, unknown>>, findings: Findings) =>
      current(rule.id, fallback)?.evaluate(args, findings) ?? allow,
  });
  const seen = new Set<string>();
  return [...rules.map((r) => wrap(r, r)), ...added.filter((r) => !seen.has(r.id) && seen.add(r.id)).map((r) => wrap(r, null))];
}
