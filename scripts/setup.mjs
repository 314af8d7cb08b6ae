#!/usr/bin/env node
// Brings a fresh clone to a runnable state: installs dependencies when package-lock.json changed
// since the last install, then builds (incrementally). Used by `npm start` and `npm test`, so
// that each README command does its own set-up.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChat } from './build-chat.mjs';
import { buildConsole } from './build-console.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const marker = join(root, 'node_modules', '.baton-installed');
const lockHash = createHash('sha256')
  .update(readFileSync(join(root, 'package-lock.json')))
  .digest('hex');
const run = (command) => execSync(command, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });

if (!existsSync(marker) || readFileSync(marker, 'utf8') !== lockHash) {
  console.error('baton: installing dependencies (npm ci; better-sqlite3 compiles, about a minute)…');
  run('npm ci --no-audit --no-fund');
  writeFileSync(marker, lockHash);
}
console.error('baton: building…');
run('npx tsc -p tsconfig.json');
// The staff console (Vite), only when its sources changed since the last build.
buildConsole();
// The web chat (Vite), likewise.
buildChat();
