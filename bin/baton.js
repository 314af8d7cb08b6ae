#!/usr/bin/env node
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('baton: not built yet. Run `npm run build` (or `npm start`, which installs and builds).');
  process.exit(1);
}
await import(entry.href);
