/**
 * The console's files as `baton serve` serves them: from the build, with a strict CSP, the page
 * itself for the console's own paths, 404 for a missing file, and a clear 503 without a build.
 */
import Fastify from 'fastify';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_CSP, registerConsoleStatic } from '../src/server/console-static.js';

async function appOver(dir: string) {
  const app = Fastify();
  registerConsoleStatic(app, dir);
  await app.ready();
  return app;
}

describe('the console files', () => {
  it('serves the build with a strict CSP, the page for its own paths, and 404 otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>c</title>');
    writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(join(dir, '.built'), 'stamp');
    const app = await appOver(dir);
    expect((await app.inject('/console')).headers['location']).toBe('/console/');
    const page = await app.inject('/console/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).not.toMatch(/unsafe|\*|https?:/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-cache');
    const script = await app.inject('/console/assets/index-abc.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toContain('immutable');
    expect((await app.inject('/console/queue')).body).toBe('<!doctype html><title>c</title>');
    expect((await app.inject('/console/assets/missing.js')).statusCode).toBe(404);
    expect((await app.inject('/console/.built')).body).not.toContain('stamp');
    expect((await app.inject('/console/../package.json')).statusCode).not.toBe(200);
    expect((await app.inject('/console/%2e%2e/%2e%2e/package.json')).body).not.toContain('"name"');
    await app.close();
  });

  it('says how to build the console when there is no build', async () => {
    const app = await appOver(mkdtempSync(join(tmpdir(), 'baton-console-none-')));
    const answer = await app.inject('/console/');
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toMatchObject({ error: { code: 'console_not_built' } });
    await app.close();
  });
});
