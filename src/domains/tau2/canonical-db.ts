import { createHash } from 'node:crypto';
import { pythonJson, type FloatPath } from './python-json.js';

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
  return (path) => {
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
