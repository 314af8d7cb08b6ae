#!/usr/bin/env node
// Builds the web chat (web/chat → web/dist/chat: the page, then the widget's loader) with Vite,
// only when a source file is newer than the last build, as build-console.mjs does for the
// console. `node scripts/build-chat.mjs --force` rebuilds.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'web', 'dist', 'chat', '.built');

/** The newest modification time (ms) of the files under `path`. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether the built chat is older than its sources (or missing). */
export function chatIsStale() {
  if (!existsSync(stamp)) return true;
  const sources = [
    join(root, 'web', 'chat'),
    join(root, 'src', 'server', 'customer-stream-protocol.ts'),
    join(root, 'src', 'runtime', 'service', 'customer-feed.ts'),
    join(root, 'package-lock.json'),
  ];
  return Math.max(...sources.map(newest)) > statSync(stamp).mtimeMs;
}

/** Builds the chat if it is stale (or `force`); returns whether it built. */
export function buildChat({ force = false } = {}) {
  if (!force && !chatIsStale()) return false;
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  for (const config of ['vite.config.ts', 'vite.widget.config.ts']) {
    execFileSync(process.execPath, [vite, 'build', '--config', join(root, 'web', 'chat', config)], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = buildChat({ force: process.argv.includes('--force') });
  if (!built) console.error('baton: the web chat is up to date (web/dist/chat)');
}
