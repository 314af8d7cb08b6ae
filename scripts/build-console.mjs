#!/usr/bin/env node
// Builds the staff console (web/console → web/dist/console) with Vite, only when a source file
// is newer than the last build: `npm start` and `npm test` call it through setup.mjs, and an
// unchanged console costs one directory walk. `node scripts/build-console.mjs --force` rebuilds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'web', 'dist', 'console', '.built');

/** The newest modification time (ms) of the files under `path`. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether the built console is older than its sources (or missing). */
export function consoleIsStale() {
  if (!existsSync(stamp)) return true;
  const sources = [join(root, 'web', 'console'), join(root, 'web', 'vite.config.ts'), join(root, 'package-lock.json')];
  return Math.max(...sources.map(newest)) > statSync(stamp).mtimeMs;
}

/** Builds the console if it is stale (or `force`); returns whether it built. */
export function buildConsole({ force = false } = {}) {
  if (!force && !consoleIsStale()) return false;
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', join(root, 'web', 'vite.config.ts')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = buildConsole({ force: process.argv.includes('--force') });
  if (!built) console.error('baton: the console is up to date (web/dist/console)');
}
