/**
 * The contract of a domain tool. For the tau2-bench ports: same checks in the same order, same
 * error strings, same output bytes as upstream. A tool returns its output text (built with
 * `pythonJson` and the model's field order) or throws `ToolError`; the caller sees
 * `Error: <message>`, as tau2-bench's environment shows any exception. Baton's own domains
 * follow the same contract, so one environment, evaluator and oracle serve every domain.
 */
export type ToolKind = 'read' | 'write' | 'generic';

/** An error a tool raises on purpose; its message is upstream's, verbatim. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export interface DomainTool<Db> {
  name: string;
  kind: ToolKind;
  description: string;
  /** Parameter names in upstream's order; the required ones first (for Python's TypeError texts). */
  params: readonly string[];
  /** Parameters with a default upstream (may be omitted). */
  optional?: readonly string[];
  run(db: Db, args: Record<string, unknown>): string;
}

/** The result of one call as tau2-bench's environment reports it. */
export interface ToolCallResult {
  output: string;
  error: boolean;
}

/**
 * Calls a tool as upstream does: unknown tools, missing and unexpected arguments produce Python's
 * messages (`Error: AirlineTools.get_user_details() missing 1 required positional argument:
 * 'user_id'`); a `ToolError` becomes `Error: <message>`. Other exceptions are bugs and throw.
 */
export function callDomainTool<Db>(
  toolset: { className: string; tools: ReadonlyMap<string, DomainTool<Db>> },
  db: Db,
  name: string,
  args: Record<string, unknown>,
): ToolCallResult {
  const tool = toolset.tools.get(name);
  if (!tool) return { output: `Error: Tool '${name}' not found.`, error: true };
  const qualified = `${toolset.className}.${name}()`;
  const unexpected = Object.keys(args).find((k) => !tool.params.includes(k));
  if (unexpected !== undefined) return { output: `Error: ${qualified} got an unexpected keyword argument '${unexpected}'`, error: true };
  const missing = tool.params.filter((p) => !(p in args) && !(tool.optional ?? []).includes(p));
  if (missing.length > 0) {
    const names = missing.map((m) => `'${m}'`);
    const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    const noun = missing.length === 1 ? 'argument' : 'arguments';
    return { output: `Error: ${qualified} missing ${missing.length} required positional ${noun}: ${list}`, error: true };
  }
  try {
    return { output: tool.run(db, args), error: false };
  } catch (error) {
    if (error instanceof ToolError) return { output: `Error: ${error.message}`, error: true };
    throw error;
  }
}
