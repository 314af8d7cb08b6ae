/** A scalar read from a successful tool output, with the tool that said it and when (item index). */
export interface PacketFact {
  source: string;
  field: string;
  value: string | number | boolean;
  at: number;
}

/** At most this many facts from one call: a product with hundreds of variants must not bury the rest. */
export const MAX_FACTS_PER_CALL = 20;
const MAX_STRING = 200;
const MAX_LIST = 10;

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const clip = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_STRING ? `${flat.slice(0, MAX_STRING - 1)}…` : flat;
};

/**
 * The scalar fields of one successful tool output, breadth first, so that an order's `status` and
 * `user_id` come before the options of its fifth item. Nulls are skipped (tau2 outputs carry many
 * unset fields); a list of scalars becomes one comma-separated value; a short plain-text output
 * (`"available"`, a bare user id) is one fact named `result`. `output` is the parsed (and already
 * redacted) JSON when `isJson`, else the raw text.
 */
export function packetFacts(source: string, at: number, output: unknown, isJson: boolean): { facts: PacketFact[]; omitted: number } {
  const all: Array<{ field: string; value: Scalar }> = [];
  if (!isJson) {
    const text = typeof output === 'string' ? output.trim() : '';
    if (text !== '' && text.length <= MAX_STRING && !text.includes('\n')) all.push({ field: 'result', value: text });
  } else {
    const queue: Array<[string, unknown]> = [['', output]];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const [path, value] = next;
      const field = path === '' ? 'result' : path;
      if (value === null || value === undefined) continue;
      if (isScalar(value)) all.push({ field, value: typeof value === 'string' ? clip(value) : value });
      else if (Array.isArray(value)) {
        if (value.length > 0 && value.every(isScalar)) {
          const shown = value.slice(0, MAX_LIST).map(String).join(', ');
          all.push({ field, value: clip(value.length > MAX_LIST ? `${shown} (+${value.length - MAX_LIST} more)` : shown) });
        } else value.forEach((item, i) => queue.push([path === '' ? String(i) : `${path}.${i}`, item]));
      } else if (typeof value === 'object') {
        for (const [key, item] of Object.entries(value)) queue.push([path === '' ? key : `${path}.${key}`, item]);
      }
    }
  }
  const kept = all.slice(0, MAX_FACTS_PER_CALL).map((f) => ({ source, field: f.field, value: f.value, at }));
  return { facts: kept, omitted: all.length - kept.length };
}
