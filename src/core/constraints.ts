import type { Constraint } from './conversation.js';

/**
 * The hand-back constraint that blocks a tool call, if any: same tool, and every argument the
 * constraint names equal (as text, so "7731" matches 7731) to the call's.
 */
export function blockingConstraint(
  constraints: readonly Constraint[],
  tool: string,
  args: Readonly<Record<string, unknown>>,
): Constraint | null {
  for (const constraint of constraints) {
    if (constraint.tool !== tool) continue;
    const all = Object.entries(constraint.args).every(([key, value]) => key in args && String(args[key]) === String(value));
    if (all) return constraint;
  }
  return null;
}
