/**
 * Over-redaction on real data: `npx tsx scripts/redaction-over-tau2.ts [TAU2_DIR]` redacts every
 * value of tau2-bench's airline and retail databases and task files (ids, amounts, dates,
 * addresses, payment-method records, flight and order data, none of them secret) and of billing's
 * tasks (whose one-time codes are secret), and prints how many values each kind replaced.
 * TAU2_DIR defaults to BATON_TAU2_DIR, else the shared folder beside the checkout.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactValue } from '../src/core/redact.js';

const dir = process.argv[2] ?? process.env['BATON_TAU2_DIR'] ?? join(import.meta.dirname, '..', '..', 'shared', 'data', 'tau2');
const leaves = (v: unknown): number =>
  v !== null && typeof v === 'object'
    ? Object.values(v).reduce((n: number, x) => n + leaves(x), 0)
    : typeof v === 'string' || typeof v === 'number'
      ? 1
      : 0;
const files = [
  join(dir, 'airline', 'db.json'),
  join(dir, 'retail', 'db.json'),
  join(dir, 'airline', 'tasks.json'),
  join(dir, 'retail', 'tasks.json'),
  join(import.meta.dirname, '..', 'data', 'billing', 'tasks.json'),
];
for (const file of files) {
  if (!existsSync(file)) {
    console.log(JSON.stringify({ file, missing: true }));
    continue;
  }
  const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const { counts } = redactValue(value);
  console.log(JSON.stringify({ file, values: leaves(value), redacted: Object.values(counts).reduce((a, b) => a + b, 0), counts }));
}
