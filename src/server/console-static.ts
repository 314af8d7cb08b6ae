import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorBody } from './http-errors.js';

/** Where `npm run build` puts the console (vite build of web/console). */
export const CONSOLE_DIR = join(import.meta.dirname, '..', '..', 'web', 'dist', 'console');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The console's Content-Security-Policy: everything from this server, nothing inline, nothing
 * from anywhere else (no CDN: it works offline), no framing, no plugins.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A built file as served: its bytes, its content type, and whether its name changes with its content. */
export interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

/** Every file under `root` (dot-files left out), by its path relative to it; assets/ is immutable. */
export function readTree(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      // Dot-files (the build's stamp) are not the console's.
      if (name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const rel = relative(root, path).split(sep).join('/');
        // Vite names what it builds under assets/ by content hash: such a file never changes.
        files.set(rel, {
          body: readFileSync(path),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: rel.startsWith('assets/'),
        });
      }
    }
  };
  walk(root);
  return files;
}

/**
 * Serves the built console at `/console/` from memory (it is a few hundred kilobytes, read once
 * at start-up), with a strict CSP and no sniffing. A path that is not a file gets the page
 * itself (the console routes in the browser). Without a build, `/console/` says how to make one.
 */
export function registerConsoleStatic(app: FastifyInstance, dir: string = CONSOLE_DIR): void {
  const files = existsSync(join(dir, 'index.html')) ? readTree(dir) : null;
  const headers = (reply: FastifyReply, file: StaticFile) =>
    reply
      .header('content-type', file.type)
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('x-frame-options', 'DENY')
      .header('cross-origin-opener-policy', 'same-origin')
      .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');

  app.get('/console', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/console/', 308));
  app.get<{ Params: { '*': string } }>('/console/*', { schema: { hide: true } }, async (request, reply) => {
    if (!files)
      return reply
        .code(503)
        .send(errorBody('console_not_built', 'the staff console is not built: run `npm run build` (it builds web/console with Vite)'));
    const path = request.params['*'];
    const file = files.get(path) ?? (extname(path) === '' ? files.get('index.html') : undefined);
    if (!file) return reply.code(404).send(errorBody('not_found', `the console has no file ${path.slice(0, 200)}`));
    return headers(reply, file).send(file.body);
  });
}
