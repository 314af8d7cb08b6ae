import type { Findings } from './rules.js';
import type { TranscriptItem } from './transcript.js';

/**
 * Facts the tool log has established: every scalar field of the arguments and (JSON) outputs of
 * successful tool calls, by field name, in the order seen. Rules and guardrails read these, never
 * the model's account of them.
 */
export function findingsFrom(items: readonly TranscriptItem[]): Findings {
  const found = new Map<string, unknown[]>();
  const add = (key: string, value: unknown) => {
    const list = found.get(key) ?? [];
    list.push(value);
    found.set(key, list);
  };
  const walk = (value: unknown, key: string | null, depth: number) => {
    if (depth > 6 || value === null || value === undefined) return;
    if (Array.isArray(value)) value.forEach((v) => walk(v, key, depth + 1));
    else if (typeof value === 'object') Object.entries(value).forEach(([k, v]) => walk(v, k, depth + 1));
    else if (key !== null) add(key, value);
  };
  for (const item of items) {
    if (item.role !== 'tool' || !item.ok) continue;
    walk(item.arguments, null, 0);
    try {
      walk(JSON.parse(item.output), null, 0);
    } catch {
      // Plain-text outputs establish no named facts.
    }
  }
  return found;
}
