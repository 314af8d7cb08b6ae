import { describe, expect, it } from 'vitest';
import { createCanonicalHasher } from '../src/domains/tau2/canonical-db.js';
import { freezeDb } from '../src/domains/episode.js';
import { pythonJson, type FloatPath } from '../src/domains/tau2/python-json.js';
import { createHash } from 'node:crypto';

// The cached hasher must give exactly the digest of the full canonical dump, whatever changed.

const isFloat: FloatPath = (path) => path.at(-1) === 'amount';
const full = (db: unknown) => createHash('sha256').update(pythonJson(db, isFloat), 'utf8').digest('hex');

function sample(records: number) {
  const people: Record<string, unknown> = {};
  for (let i = 0; i < records; i++)
    people[`p${String(i).padStart(3, '0')}`] = { name: `n${i}`, amount: i, tags: [i, 'x'], nested: { amount: i / 2 } };
  return { people, settings: { currency: 'EUR' }, version: 3, list: [1, 2.5, 'z'], empty: {} };
}

/** A copy of `db` with one record replaced, sharing everything else, as a copy-on-write write does. */
function withRecord(db: ReturnType<typeof sample>, key: string, value: unknown) {
  return freezeDb({ ...db, people: { ...db.people, [key]: value } });
}

describe('createCanonicalHasher', () => {
  const base = freezeDb(sample(100));
  const hash = createCanonicalHasher(isFloat, base);

  it('hashes the base like the full dump', () => {
    expect(hash(base)).toBe(full(base));
  });

  it.each(['p000', 'p031', 'p032', 'p050', 'p099'])('resumes correctly after a change to %s', (key) => {
    const changed = withRecord(base, key, { name: 'changed', amount: 7 });
    expect(hash(changed)).toBe(full(changed));
    expect(hash(changed)).not.toBe(hash(base));
  });

  it('handles added and removed records, and records that are not frozen', () => {
    const added = withRecord(base, 'p0505', { name: 'new', amount: 1 });
    expect(hash(added)).toBe(full(added));
    const { p010: _removed, ...rest } = base.people as Record<string, unknown>;
    const removed = freezeDb({ ...base, people: rest });
    expect(hash(removed)).toBe(full(removed));
    const unfrozen = { ...base, people: { ...base.people, p020: { name: 'mutable', amount: 2 } } };
    expect(hash(unfrozen)).toBe(full(unfrozen));
    (unfrozen.people.p020 as { amount: number }).amount = 3;
    expect(hash(unfrozen)).toBe(full(unfrozen));
  });

  it('handles changed non-map values and new collections', () => {
    const other = freezeDb({ ...base, version: 4, list: [1], zeta: { a: { amount: 1 } } });
    expect(hash(other)).toBe(full(other));
  });

  it('sorts keys by code point, as Python does, even for characters beyond the BMP', () => {
    const db = freezeDb({ things: { '\u{1F600}': { amount: 1 }, '\uFF21': { amount: 2 }, a: { amount: 3 } } });
    const h = createCanonicalHasher(isFloat, db);
    expect(h(db)).toBe(full(db));
    // Python: 'a' < 'Ａ' (U+FF21) < '😀' (U+1F600); UTF-16 code units would put the emoji first.
    expect(pythonJson(db, isFloat).indexOf('\\uff21')).toBeLessThan(pythonJson(db, isFloat).indexOf('\\ud83d'));
  });

  it("tells a collection whose only key is '' from a value that is not a map", () => {
    const odd = freezeDb({ c: { '': { amount: 1 } }, d: [1, 2] });
    const h = createCanonicalHasher(isFloat, odd);
    expect(h(odd)).toBe(full(odd));
    const other = freezeDb({ c: { '': { amount: 2 } }, d: [1, 2] });
    expect(h(other)).toBe(full(other));
  });

  it('freezes its base, so a base handed over unfrozen cannot go stale later', () => {
    const mutable = sample(40);
    const h = createCanonicalHasher(isFloat, mutable);
    expect(h(mutable)).toBe(full(mutable));
    expect(Object.isFrozen(mutable.people['p001'])).toBe(true);
    expect(() => {
      (mutable.people['p001'] as { amount: number }).amount = 99;
    }).toThrow(TypeError);
  });

  it('never reuses a state over values that are not frozen, even when they are the same objects', () => {
    const base = freezeDb(sample(40));
    const h = createCanonicalHasher(isFloat, base);
    const record = { name: 'live', amount: 1 };
    const live = { ...base, people: { ...base.people, p005: record } };
    expect(h(live)).toBe(full(live));
    record.amount = 2;
    expect(h(live)).toBe(full(live));
  });
});
