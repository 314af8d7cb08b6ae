/**
 * Episodes with copy-on-write databases. The domain's initial database is frozen once; an
 * episode starts from it for free, and each write tool runs on a mutative draft, so the next
 * snapshot shares every record the write did not touch. Reads run on the snapshot itself.
 * Nothing is re-parsed or deep-copied per episode, and untouched records keep their identity,
 * which lets the canonical hash reuse their serialisation (see `createCanonicalHasher`).
 */
import { create, type Patch } from 'mutative';
import type { Episode } from './domain.js';
import { callDomainTool, type DomainTool, type ToolCallResult } from './domain-tool.js';

export interface Toolset<Db> {
  /** The class name upstream's Python error texts use (`AirlineTools`). */
  className: string;
  tools: ReadonlyMap<string, DomainTool<Db>>;
}

/**
 * Freezes a database in place, deeply, so that it can be shared by every episode. The walk stops
 * at values already frozen, so freezing a snapshot after a write visits only what it changed.
 */
export function freezeDb<Db extends object>(db: Db): Db {
  if (Object.isFrozen(db)) return db;
  const stack: Record<string, unknown>[] = [db as Record<string, unknown>];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    Object.freeze(value);
    for (const key in value) {
      const child = value[key];
      if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) stack.push(child as Record<string, unknown>);
    }
  }
  return db;
}

/**
 * Freezes the records a write changed (`patches` name them). The root and its collection maps
 * stay unfrozen after a write: `Object.freeze` on a map of thousands of keys costs more than the
 * write itself, and nothing relies on it (write tools get drafts; the canonical hasher caches
 * only frozen records, and every record of a snapshot is frozen).
 */
function freezeChanged(db: object, patches: readonly Patch[]): void {
  for (const patch of patches) {
    const [collection, key] = patch.path;
    const records = (db as Record<string, unknown>)[String(collection)];
    if (key === undefined || records === null || typeof records !== 'object') {
      if (records !== null && typeof records === 'object') freezeDb(records);
      continue;
    }
    const record = (records as Record<string, unknown>)[String(key)];
    if (record !== null && typeof record === 'object') freezeDb(record);
  }
}

/**
 * Runs a call as tau2-bench's environment does: an unexpected exception in a tool (a wrong
 * argument type the port does not model) is reported to the caller as `Error: …`, like any
 * Python exception upstream, rather than ending the episode.
 */
function guarded(run: () => ToolCallResult): ToolCallResult {
  try {
    return run();
  } catch (error) {
    return { output: `Error: ${error instanceof Error ? error.message : String(error)}`, error: true };
  }
}

/**
 * A new episode on `initial` (already frozen with `freezeDb`). A write that fails part-way keeps
 * what it changed before failing, as upstream's in-place mutation does.
 */
export function createEpisode<Db extends object>(initial: Db, toolset: Toolset<Db>, hash: (db: Db) => string): Episode<Db> {
  let db = initial;
  return {
    get db() {
      return db;
    },
    call(name, args) {
      if (toolset.tools.get(name)?.kind !== 'write') return guarded(() => callDomainTool(toolset, db, name, args));
      let result: ToolCallResult = { output: '', error: true };
      const [next, patches] = create(
        db,
        (draft) => {
          result = guarded(() => callDomainTool(toolset, draft as Db, name, args));
        },
        { enableAutoFreeze: false, enablePatches: { arrayLengthAssignment: false } },
      );
      db = next as Db;
      freezeChanged(db, patches);
      return result;
    },
    hash: () => hash(db),
    apply(change) {
      const [next, patches] = create(db, (draft) => change(draft as Db), {
        enableAutoFreeze: false,
        enablePatches: { arrayLengthAssignment: false },
      });
      db = next as Db;
      freezeChanged(db, patches);
    },
  };
}
