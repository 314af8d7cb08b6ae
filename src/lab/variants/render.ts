/** A variant as a person reads it: its label, the rule, and the script turn by turn. */
import type { HandoffVariant } from '../variant.js';

const quote = (text: string) => `"${text}"`;

/** A readable multi-line rendering of one variant (what `baton tasks show` prints). */
export function renderVariant(v: HandoffVariant): string {
  const label = v.should_transfer
    ? `hand off to ${v.expected_target} (${v.expected_reason}), due from customer turn ${v.due_turn}`
    : 'no hand-off (finish or refuse without transferring)';
  const lines = [
    `${v.id}`,
    `  source:   ${v.domain} task ${v.source} (split ${v.split})`,
    `  kind:     ${v.kind} (${v.should_transfer ? 'should transfer' : 'hard negative'})`,
    `  label:    ${label}`,
    `  rule:     ${v.label_rule}`,
    `  outage:   ${v.outage ? `every tool call fails from customer turn ${v.outage.fromTurn}` : 'none'}`,
    '',
    'script',
    `  request:  ${quote(v.script.request)}`,
    '  facts (given when the agent asks with one of the words):',
    ...(v.script.facts.length === 0
      ? ['    (none)']
      : v.script.facts.map(
          (f) =>
            `    ${f.key} = ${f.value}${f.volunteered ? '  [said in the opening]' : ''}  — asked by: ${f.askedBy.map(quote).join(', ')}`,
        )),
    '  beats:',
    ...(v.script.beats.length === 0
      ? ['    (none)']
      : v.script.beats.map((b) => `    turn ${b.turn}  ${b.kind.padEnd(18)} ${quote(b.text)}`)),
    `  on transfer: ${v.script.onTransfer}; confirms changes: ${v.script.confirms ? 'yes' : 'no'}; stops after ${v.script.maxTurns} turns at most`,
  ];
  if (v.instruction) lines.push('', 'instruction for an LLM customer', `  ${v.instruction}`);
  return `${lines.join('\n')}\n`;
}
