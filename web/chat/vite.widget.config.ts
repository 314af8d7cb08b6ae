import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The web chat's loader, `/chat/widget.js`: one classic script (an IIFE, no imports) that any
 * page includes with one tag; its name never changes, so it is served `no-cache`. Built after
 * the page (vite.config.ts) into the same folder, which it does not empty.
 */
export default defineConfig({
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/chat', import.meta.url)),
    emptyOutDir: false,
    sourcemap: false,
    lib: {
      entry: fileURLToPath(new URL('./src/widget.ts', import.meta.url)),
      formats: ['iife'],
      name: 'BatonChatWidget',
      fileName: () => 'widget.js',
    },
  },
});
