/**
 * Whether a tool call writes, when the policy does not list its write tools: judged from the
 * tool's name. A read (`get_`, `find_`, `calculate_`, `quote_`, …) that happens to take an
 * `amount` argument moves no money, so it must not trip the autonomous limit.
 */

// The leading verb of the tool's name (snake, kebab or camel case) decides.
const READ_VERBS = new Set(
  (
    'get find list search lookup look check calculate calc compute quote estimate preview view show read fetch query describe validate ' +
    'verify simulate convert count is has can think explain summarize summarise retrieve inspect review track compare price dry'
  ).split(' '),
);

/** The first word of a tool name: `get_charges` → `get`, `issueRefund` → `issue`. */
function leadingVerb(name: string): string {
  return (
    name
      .replace(/([a-z])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .find((w) => w !== '') ?? ''
  );
}

/** A guess from the name alone: a tool whose name starts with a read verb does not write. */
export const looksLikeWrite = (name: string): boolean => !READ_VERBS.has(leadingVerb(name));

/**
 * Whether a call of `name` counts as a write: a listed write tool does, a listed read tool does
 * not; a tool in neither list is judged by {@link looksLikeWrite} — unless only write tools are
 * listed, which then are the only writes.
 */
export function isWriteTool(name: string, writeTools: readonly string[], readTools: readonly string[] = []): boolean {
  if (writeTools.includes(name)) return true;
  if (readTools.includes(name)) return false;
  return writeTools.length > 0 && readTools.length === 0 ? false : looksLikeWrite(name);
}
