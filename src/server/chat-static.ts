import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { readTree, type StaticFile } from './console-static.js';
import { errorBody } from './http-errors.js';

/** Where `npm run build` puts the web chat (vite builds of web/chat). */
export const CHAT_DIR = join(import.meta.dirname, '..', '..', 'web', 'dist', 'chat');

/** Options of {@link registerChatStatic}. */
export interface ChatStaticOptions {
  /** Where the built chat is (default {@link CHAT_DIR}). */
  dir?: string;
  /**
   * Origins (`https://shop.example.com`) whose pages may embed the chat with the widget: they go
   * into the embedded page's `frame-ancestors`. None by default (only this server's own pages).
   */
  embedOrigins?: readonly string[];
}

/**
 * The web chat's Content-Security-Policy: everything from this server, nothing inline, nothing
 * from anywhere else (no CDN: it works offline); framed only by `frameAncestors`.
 */
export function chatCsp(frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length === 0 ? "'none'" : frameAncestors.join(' ')}`,
  ].join('; ');
}

/**
 * Serves the built web chat from memory with a strict CSP: the hosted page at `/chat/`, the same
 * page laid out for a frame at `/chat/embed` (which only this server's pages and `embedOrigins`
 * may frame), and the loader `/chat/widget.js` that any page may include with one script tag.
 * Without a build, the pages say how to make one.
 */
export function registerChatStatic(app: FastifyInstance, options: ChatStaticOptions = {}): void {
  const dir = options.dir ?? CHAT_DIR;
  const files = existsSync(join(dir, 'index.html')) ? readTree(dir) : null;
  const hosted = chatCsp([]);
  const embedded = chatCsp(["'self'", ...(options.embedOrigins ?? [])]);
  const serve = (reply: FastifyReply, path: string, csp: string) => {
    if (!files)
      return reply
        .code(503)
        .send(errorBody('chat_not_built', 'the web chat is not built: run `npm run build` (it builds web/chat with Vite)'));
    const file: StaticFile | undefined = files.get(path);
    if (!file) return reply.code(404).send(errorBody('not_found', `the web chat has no file ${path.slice(0, 200)}`));
    return (
      reply
        .header('content-type', file.type)
        .header('content-security-policy', csp)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        // The loader and its assets are fetched by pages on other origins (the widget's hosts).
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(file.body)
    );
  };

  app.get('/chat', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/chat/', 308));
  app.get('/chat/', { schema: { hide: true } }, async (_request, reply) =>
    serve(reply.header('x-frame-options', 'DENY'), 'index.html', hosted),
  );
  app.get('/chat/embed', { schema: { hide: true } }, async (_request, reply) => serve(reply, 'index.html', embedded));
  app.get<{ Params: { '*': string } }>('/chat/*', { schema: { hide: true } }, async (request, reply) => {
    const path = request.params['*'];
    if (path === 'index.html') return reply.redirect('/chat/', 308);
    return serve(reply, path, hosted);
  });
}
