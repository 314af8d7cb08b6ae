import { createHash, type Hash } from 'node:crypto';
import { freezeDb } from '../episode.js';
import { pythonJson, pythonJsonAt, pythonString, sortByCodePoint, type FloatPath } from './python-json.js';

export type Tau2Domain = 'airline' | 'retail';

// Paths are matched from the collection down, with keyed-map levels written as '*' and array
// items as '[]': e.g. users.*.payment_methods.*.amount.
const FLOAT_FIELDS: Record<Tau2Domain, readonly string[]> = {
  airline: ['users.*.payment_methods.*.amount'],
  retail: [
    'products.*.variants.*.price',
    'orders.*.items.[].price',
    'orders.*.payment_history.[].amount',
    'orders.*.exchange_price_difference',
    'users.*.payment_methods.*.balance',
  ],
};

/** Fields every record has in memory (null when unset), though `db.json` leaves them out. */
const OPTIONAL_FIELDS: Record<Tau2Domain, Record<string, readonly string[]>> = {
  airline: { reservations: ['status'] },
  retail: {
    orders: [
      'cancel_reason',
      'exchange_items',
      'exchange_new_items',
      'exchange_payment_method_id',
      'exchange_price_difference',
      'return_items',
      'return_payment_method_id',
    ],
  },
};

/** Which numbers of a domain's database are float-typed (Python prints them with a fraction). */
export function floatPaths(domain: Tau2Domain): FloatPath {
  const patterns = FLOAT_FIELDS[domain].map((p) => p.split('.'));
  const lastParts = new Set(patterns.map((p) => p.at(-1)));
  return (path) => {
    // Most numbers are not float-typed: the field name alone says so.
    if (!lastParts.has(path.at(-1))) return false;
    // Collections are keyed maps: the second level is a key, whatever its text.
    return patterns.some(
      (pattern) =>
        pattern.length === path.length &&
        pattern.every((part, i) => part === path[i] || (part === '*' && path[i] !== '[]') || (part === '[]' && path[i] === '[]')),
    );
  };
}

/**
 * The database as tau2-bench's models dump it: every optional field present, null when unset.
 * Mutates and returns `db` (callers pass their own copy).
 */
export function withModelDefaults<T extends Record<string, unknown>>(domain: Tau2Domain, db: T): T {
  for (const [collection, fields] of Object.entries(OPTIONAL_FIELDS[domain])) {
    const records = db[collection] as Record<string, Record<string, unknown>> | undefined;
    if (!records) continue;
    for (const record of Object.values(records)) {
      for (const field of fields) if (!(field in record)) record[field] = null;
    }
  }
  return db;
}

/** tau2-bench's canonical hash of a database: SHA-256 of its Python-style sorted JSON dump. */
export function canonicalDbHash(domain: Tau2Domain, db: Record<string, unknown>): string {
  return createHash('sha256')
    .update(pythonJson(db, floatPaths(domain)), 'utf8')
    .digest('hex');
}

/** Records per hashed segment: a write resumes hashing from the segment holding its first change. */
const SEGMENT_RECORDS = 32;
const SEPARATOR = Buffer.from(', ');

/** One piece of the canonical document: a run of a collection's records (or a whole non-map value). */
interface Segment {
  name: string;
  /** The collection's whole value (not a map of records): serialised as one. */
  whole: boolean;
  /** The text before the records (`{"flights": {` for a first segment, `, ` between runs). */
  head: string;
  keys: readonly string[];
  values: readonly unknown[];
  tail: string;
}

/** A point in the document reached by hashing the segments on its path from the root. */
interface Prefix {
  state: Hash;
  next: { segment: Segment; prefix: Prefix }[];
}

const frozenObject = (value: unknown): value is object => value !== null && typeof value === 'object' && Object.isFrozen(value);

/** The same segment: same text around the same keys, and the very same frozen records. */
function sameSegment(a: Segment, b: Segment): boolean {
  if (a.name !== b.name || a.whole !== b.whole || a.head !== b.head || a.tail !== b.tail) return false;
  if (a.keys.length !== b.keys.length || a.values.length !== b.values.length) return false;
  for (let i = 0; i < a.keys.length; i++) if (a.keys[i] !== b.keys[i]) return false;
  for (let i = 0; i < a.values.length; i++) if (a.values[i] !== b.values[i]) return false;
  return true;
}

/**
 * tau2-bench's canonical hash for snapshots that share structure with `base` (the database every
 * episode starts from; frozen, deeply, on the first call): the same digest as `canonicalDbHash`,
 * at a fraction of the cost. "Frozen" means deeply frozen throughout Baton (`freezeDb`), so a
 * frozen value is taken to never change.
 * Frozen values never change, so caches keyed by their identity are safe. The document is cut
 * into segments of a few records; the first call hashes `base` and keeps the SHA-256 state after
 * every segment (`Hash.copy()`). A later snapshot walks that path while its segments hold the very
 * same records, resumes from the state where they first differ, and serialises only records it
 * has not seen (each record's text is kept by identity). Values that are not frozen are
 * serialised afresh every time.
 */
export function createCanonicalHasher(isFloat: FloatPath, base: Record<string, unknown>): (db: Record<string, unknown>) => string {
  const entries = new Map<string, WeakMap<object, { key: string; bytes: Buffer }>>();
  /** Per collection name, the last sorted key list: a changed collection usually has the same keys. */
  const sortedKeys = new Map<string, string[]>();
  const root: Prefix = { state: createHash('sha256').update('{'), next: [] };

  const entryBytes = (collection: string, key: string, value: unknown): Buffer => {
    const text = () => Buffer.from(`${pythonString(key)}: ${pythonJsonAt(value, isFloat, [collection, key])}`, 'utf8');
    if (!frozenObject(value)) return text();
    let cache = entries.get(collection);
    if (!cache) entries.set(collection, (cache = new WeakMap()));
    const cached = cache.get(value);
    // A record sits under one key; the key is compared in case the same object is stored twice.
    if (cached?.key === key) return cached.bytes;
    const bytes = text();
    cache.set(value, { key, bytes });
    return bytes;
  };
  const keysOf = (name: string, map: Record<string, unknown>): string[] => {
    const last = sortedKeys.get(name);
    if (last && last.length === Object.keys(map).length && last.every((k) => Object.hasOwn(map, k))) return last;
    const keys = sortByCodePoint(Object.keys(map));
    sortedKeys.set(name, keys);
    return keys;
  };
  function* segments(db: Record<string, unknown>): Generator<Segment> {
    const names = sortByCodePoint(Object.keys(db));
    for (const [i, name] of names.entries()) {
      const open = `${i > 0 ? ', ' : ''}${pythonString(name)}: `;
      const value = db[name];
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        yield { name, whole: true, head: open, keys: [], values: [value], tail: '' };
        continue;
      }
      const map = value as Record<string, unknown>;
      const keys = keysOf(name, map);
      if (keys.length === 0) yield { name, whole: false, head: `${open}{`, keys: [], values: [], tail: '}' };
      for (let from = 0; from < keys.length; from += SEGMENT_RECORDS) {
        const run = keys.slice(from, from + SEGMENT_RECORDS);
        const last = from + SEGMENT_RECORDS >= keys.length;
        yield {
          name,
          whole: false,
          head: from === 0 ? `${open}{` : ', ',
          keys: run,
          values: run.map((k) => map[k]),
          tail: last ? '}' : '',
        };
      }
    }
  }
  const update = (hash: Hash, segment: Segment) => {
    hash.update(segment.head);
    if (segment.whole) {
      hash.update(pythonJsonAt(segment.values[0], isFloat, [segment.name]), 'utf8');
    } else {
      const parts: Buffer[] = [];
      segment.keys.forEach((key, i) => {
        if (i > 0) parts.push(SEPARATOR);
        parts.push(entryBytes(segment.name, key, segment.values[i]));
      });
      hash.update(Buffer.concat(parts));
    }
    hash.update(segment.tail);
  };
  /** Hashes `db`; `grow` keeps the states of its path for later snapshots to resume from. */
  const digest = (db: Record<string, unknown>, grow: boolean): string => {
    let prefix: Prefix | null = root;
    let hash: Hash | null = null;
    for (const segment of segments(db)) {
      // Only segments of frozen values can be recognised later: anything else may have changed.
      const lasting = segment.values.every((v) => v === null || typeof v !== 'object' || Object.isFrozen(v));
      if (hash === null && prefix !== null) {
        const known: { prefix: Prefix } | undefined = lasting ? prefix.next.find((n) => sameSegment(n.segment, segment)) : undefined;
        if (known) {
          prefix = known.prefix;
          continue;
        }
        hash = prefix.state.copy();
      }
      if (hash === null) throw new Error('unreachable: hashing without a state');
      update(hash, segment);
      if (grow && prefix !== null && lasting) {
        const next: Prefix = { state: hash.copy(), next: [] };
        prefix.next.push({ segment, prefix: next });
        prefix = next;
      } else prefix = null;
    }
    return (hash ?? (prefix ?? root).state.copy()).update('}').digest('hex');
  };
  let baseDigest: string | null = null;
  return (db) => {
    if (baseDigest === null) baseDigest = digest(freezeDb(base), true);
    // The base is frozen and never changes: episodes that wrote nothing hash to it at once.
    if (db === base) return baseDigest;
    return digest(db, false);
  };
}
