import { ConstraintSchema, type Constraint } from '../core/index.js';

/** The heading above the constraints in the agent's system prompt. */
export const CONSTRAINTS_HEADING = 'A human who handled this conversation set these constraints; calls that break them will be refused:';

/** One constraint as the agent reads it: the person's note, the tool it blocks, and the arguments it matches. */
export function constraintLine(c: Constraint): string {
  const when = Object.keys(c.args).length > 0 ? ` when ${JSON.stringify(c.args)}` : '';
  return `- ${c.note.replace(/\s+/g, ' ')} (blocks ${c.tool}${when})`;
}

const LINE = /^- (.+) \(blocks ([^\s()]+)(?: when (\{.*\}))?\)$/;

/** The constraints a system prompt lists (what a rule-based policy reads back), in order. */
export function constraintsInPrompt(system: string): Constraint[] {
  const at = system.indexOf(CONSTRAINTS_HEADING);
  if (at < 0) return [];
  const out: Constraint[] = [];
  for (const line of system.slice(at + CONSTRAINTS_HEADING.length).split('\n')) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    let args: unknown = {};
    try {
      args = match[3] ? JSON.parse(match[3]) : {};
    } catch {
      continue;
    }
    const parsed = ConstraintSchema.safeParse({ note: match[1], tool: match[2], args });
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
