/**
 * Words shared by both simulated customers: how a fact is called, and the scenario an LLM user
 * reads — tau2-bench's rendering of a task's `user_scenario`, and the same layout for a `UserScript`.
 */
import type { UserScenario } from '../../domains/domain.js';
import type { UserScript } from '../variant.js';

const FACT_LABELS: Readonly<Record<string, string>> = {
  user_id: 'user id',
  customer_id: 'customer id',
  email: 'e-mail address',
  name: 'name',
  full_name: 'full name',
  first_name: 'first name',
  last_name: 'last name',
  zip: 'zip code',
  zip_code: 'zip code',
  postcode: 'postcode',
  phone: 'phone number',
  address: 'address',
  date_of_birth: 'date of birth',
  order_id: 'order id',
  reservation_id: 'reservation number',
  code: 'verification code',
  verification_code: 'verification code',
  payment_method: 'payment method',
  charge_id: 'charge id',
};

/** A fact's key in words (`email` → `e-mail address`; an unknown key with its underscores as spaces). */
export function factLabel(key: string): string {
  return FACT_LABELS[key] ?? key.replace(/_/g, ' ');
}

/** Python's `textwrap.indent`: the prefix before every line that is not blank. */
function indent(text: string, prefix = '\t'): string {
  return text
    .split(/(?<=\n)/)
    .map((line) => (line.trim() === '' ? line : prefix + line))
    .join('');
}

/**
 * A task's `user_scenario` as tau2-bench renders it for its user simulator (`str(UserScenario)`):
 * an optional `Persona:` block, then `Instructions:` with the labelled, tab-indented blocks.
 */
export function renderUserScenario(scenario: UserScenario): string {
  const lines: string[] = [];
  if (scenario.persona !== null) lines.push('Persona:', indent(scenario.persona));
  const i = scenario.instructions;
  let instructions: string;
  if (typeof i === 'string') instructions = i;
  else {
    const parts = [`Domain: ${i.domain}`, `Reason for call:\n${indent(i.reason_for_call)}`];
    if (i.known_info !== null) parts.push(`Known info:\n${indent(i.known_info)}`);
    if (i.unknown_info !== null) parts.push(`Unknown info:\n${indent(i.unknown_info)}`);
    parts.push(`Task instructions:\n${indent(i.task_instructions)}`);
    instructions = parts.join('\n');
  }
  lines.push('Instructions:', indent(instructions));
  return lines.join('\n');
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const ordinal = (n: number) => ORDINALS[n - 1] ?? `${n}th`;

/**
 * A `UserScript` as a scenario in tau2-bench's layout, for an LLM user: the request, the facts
 * (known, to be given when asked), and the script's behaviour as task instructions.
 */
export function renderScriptScenario(script: UserScript, domain: string): string {
  const volunteered = script.facts.filter((f) => f.volunteered).map((f) => factLabel(f.key));
  const known = script.facts.map((f) => `Your ${factLabel(f.key)} is ${f.value}.`).join('\n');
  const rules = [
    volunteered.length > 0
      ? `In your first message, say what you want and give your ${volunteered.join(' and ')}. Give any other known info only when the agent asks for it.`
      : 'In your first message, say what you want. Give your known info only when the agent asks for it.',
    ...[...script.beats]
      .sort((a, b) => a.turn - b.turn)
      .map((beat) => `In your ${ordinal(beat.turn)} message, also say, in your own words: "${beat.text}"`),
    script.confirms
      ? 'When the agent describes a change and asks you to confirm it, say yes.'
      : 'When the agent describes a change and asks you to confirm it, say no: you do not want it made.',
    script.onTransfer === 'accept'
      ? 'If the agent offers to transfer you to another agent or a person, accept.'
      : 'If the agent offers or announces a transfer to another agent or a person, refuse it and ask the agent to keep helping you.',
    'If the agent asks for something that is not in your known info, say you do not have it.',
    `End the conversation once your request is handled, or after ${script.maxTurns} of your messages at the latest.`,
  ];
  return renderUserScenario({
    persona: null,
    instructions: {
      domain,
      reason_for_call: script.request,
      known_info: known === '' ? null : known,
      unknown_info: null,
      task_instructions: rules.join('\n'),
    },
  });
}
