/**
 * Renders `docs/styles.md`: the style cards and one billing task's conversation in each style,
 * as the scripted customer writes it. Prints the document; with `--write`, writes it in place.
 *
 *   npx tsx scripts/render-styles.ts --write
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderStylesDoc } from '../src/lab/users/styles-doc.js';

const doc = await renderStylesDoc();
if (process.argv.includes('--write')) {
  const target = join(import.meta.dirname, '..', 'docs', 'styles.md');
  writeFileSync(target, doc);
  console.log(`wrote ${target}`);
} else {
  process.stdout.write(doc);
}
