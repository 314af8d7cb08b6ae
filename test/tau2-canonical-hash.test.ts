import { describe, expect, it } from 'vitest';
import { canonicalDbHash, withModelDefaults } from '../src/domains/tau2/canonical-db.js';
import { pythonFloat, pythonJson, pythonString } from '../src/domains/tau2/python-json.js';
import { resolveTau2Data } from '../src/domains/tau2/tau2-data.js';
import { tau2DirForTests } from './support/tau2-dir.js';

describe('Python-style JSON', () => {
  it.each([
    [100, '100.0'],
    [54.04, '54.04'],
    [41.91999999999999, '41.91999999999999'],
    [0.1 + 0.2, '0.30000000000000004'],
    [-3.5, '-3.5'],
    [1e16, '1e+16'],
    [1.5e-5, '1.5e-05'],
    [0.0001, '0.0001'],
    [123456789012345.6, '123456789012345.6'],
    [0, '0.0'],
  ])('repr(%s) = %s', (x, expected) => {
    expect(pythonFloat(x)).toBe(expected);
  });

  it('sorts keys, uses Python separators, escapes non-ASCII, and prints floats by field type', () => {
    const value = { b: [1, 2], a: { price: 10, qty: 3 }, name: 'Zoë', ok: true, none: null };
    expect(pythonJson(value, (path) => path.at(-1) === 'price')).toBe(
      '{"a": {"price": 10.0, "qty": 3}, "b": [1, 2], "name": "Zo\\u00eb", "none": null, "ok": true}',
    );
    expect(pythonString('line\nbreak "quoted" \u2028')).toBe('"line\\nbreak \\"quoted\\" \\u2028"');
  });
});

describe('tau2-bench canonical database hash', () => {
  it.each([
    ['airline', '124e39a664b56402bcd09cb8a6a9cece6acb8462337c969799d5658e3250f263'],
    ['retail', 'b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c'],
  ] as const)('reproduces the initial %s hash', async (domain, expected) => {
    const data = await resolveTau2Data({ dir: tau2DirForTests(), env: {} });
    const db = withModelDefaults(domain, JSON.parse(data.read(`${domain}/db.json`)) as Record<string, unknown>);
    expect(canonicalDbHash(domain, db)).toBe(expected);
  });
});
