import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tau2-bench data the tests read: `BATON_TAU2_DIR` (CI sets it), else the shared folder
 * beside the checkout. Never a copy inside the project.
 */
export function tau2DirForTests(): string {
  const dir = process.env['BATON_TAU2_DIR'] ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'tau2');
  if (!existsSync(join(dir, 'airline', 'db.json'))) {
    throw new Error(`tau2-bench data not found at ${dir}: set BATON_TAU2_DIR to a folder with it`);
  }
  return dir;
}
