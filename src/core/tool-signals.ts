/**
 * Signals from the tool log: every call's result, a disabled or unavailable tool, and the
 * amount of a write (the autonomous limit is applied later, by `decideHandoff`).
 */
import type { DeciderPolicy } from './decider-policy.js';
import type { Signal } from './handoff-signals.js';
import { normalizeText } from './handoff-lexicon.js';
import { TOOL_UNAVAILABLE, TRANSIENT } from './handoff-topics-lexicon.js';
import { isWriteTool } from './tool-kind.js';
import type { ToolItem } from './transcript.js';

/**
 * An amount from a number or a string in either convention: "1,250.00", "$1,250", "1.250,00 EUR",
 * "89,00". The last of "." and "," followed by one or two digits at the end is the decimal mark.
 */
export function parseAmount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^[^\d-]*(-?\d[\d.,]*)/.exec(value.trim());
  if (!m?.[1]) return undefined;
  let digits = m[1].replace(/[.,]$/, '');
  const decimal = /[.,](\d{1,2})$/.exec(digits);
  const separators = digits.match(/[.,]/g) ?? [];
  if (decimal && (separators.length === 1 || separators[separators.length - 1] !== separators[0])) {
    digits = `${digits.slice(0, decimal.index).replace(/[.,]/g, '')}.${decimal[1]}`;
  } else {
    digits = digits.replace(/[.,]/g, '');
  }
  const n = Number(digits);
  return Number.isFinite(n) ? n : undefined;
}

/** The signals of one tool call. */
export function toolSignals(item: ToolItem, index: number, policy: DeciderPolicy): Signal[] {
  const evidence = `${item.name}: ${item.output.slice(0, 200)}`;
  const at = { evidence, index, offset: 0 };
  const out: Signal[] = [{ kind: 'tool_result', tool: item.name, ok: item.ok, ...at }];
  if (policy.disabledTools.includes(item.name)) {
    out.push({ kind: 'no_capability', cause: 'tool_disabled', ...at, evidence: `${item.name} is disabled by the policy` });
  } else if (!item.ok && item.refused === undefined) {
    // A successful call's output is data ("account disabled"), so only failures are read this way;
    // and a call the harness refused (a tool name the model made up) never reached any tool.
    const norm = normalizeText(item.output);
    if (TOOL_UNAVAILABLE.test(norm) && !TRANSIENT.test(norm)) out.push({ kind: 'no_capability', cause: 'tool_unavailable', ...at });
  }
  const raw = item.arguments[policy.amountArgument];
  const amount = parseAmount(raw);
  if (amount !== undefined && isWriteTool(item.name, policy.writeTools, policy.readTools)) {
    out.push({
      kind: 'write_amount',
      tool: item.name,
      amount,
      ...at,
      evidence: `${item.name} ${policy.amountArgument}=${JSON.stringify(raw)}`,
    });
  }
  return out;
}
