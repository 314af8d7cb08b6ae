/**
 * A pure function of a text, worked out once per text: the decider reads the whole conversation
 * again at every turn, so the same messages and clauses come back again and again. The memory is
 * bounded: past `limit` texts it starts afresh (a cleared cache costs only time, never an answer).
 */
export function memoByText<T>(fn: (text: string) => T, limit = 20_000): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    const hit = known.get(text);
    if (hit !== undefined || known.has(text)) return hit as T;
    const value = fn(text);
    if (known.size >= limit) known.clear();
    known.set(text, value);
    return value;
  };
}
