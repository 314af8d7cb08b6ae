import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The web chat's page: web/chat → web/dist/chat, served by `baton serve` at /chat/ (and, laid
 * out for a frame, at /chat/embed). Plain TypeScript, no framework; everything is bundled (no
 * CDN) and nothing is inlined, so the Content-Security-Policy can forbid inline scripts and styles.
 * The loader (widget.js) is built apart: vite.widget.config.ts.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/chat/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/chat', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
});
