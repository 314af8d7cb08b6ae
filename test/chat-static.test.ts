/**
 * The web chat's files as `baton serve` serves them: the hosted page (never framed), the embed
 * page (framed only by the configured origins), the loader and the assets, with a strict CSP;
 * 404 for a missing file, a clear 503 without a build; and the configuration refuses an embed
 * origin that is not exactly an origin (it would go into a CSP header).
 */
import Fastify from 'fastify';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServeConfigSchema } from '../src/cli/serve-config.js';
import { chatCsp, registerChatStatic } from '../src/server/chat-static.js';

async function appOver(dir: string, embedOrigins: string[] = []) {
  const app = Fastify();
  registerChatStatic(app, { dir, embedOrigins });
  await app.ready();
  return app;
}

describe('the web chat files', () => {
  it('serves the page unframeable, the embed page to the allowed origins, the loader to anyone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-chat-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>chat</title>');
    writeFileSync(join(dir, 'widget.js'), '(()=>{})()');
    writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(join(dir, '.built'), 'stamp');
    const app = await appOver(dir, ['https://shop.example.com']);
    expect((await app.inject('/chat')).headers['location']).toBe('/chat/');
    const page = await app.inject('/chat/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(chatCsp([]));
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(chatCsp([])).not.toMatch(/unsafe|\*|https?:/);
    const embed = await app.inject('/chat/embed');
    expect(embed.body).toBe(page.body);
    expect(embed.headers['content-security-policy']).toContain("frame-ancestors 'self' https://shop.example.com");
    expect(embed.headers['x-frame-options']).toBeUndefined();
    const widget = await app.inject('/chat/widget.js');
    expect(widget.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(widget.headers['cache-control']).toBe('no-cache');
    expect(widget.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect((await app.inject('/chat/assets/index-abc.js')).headers['cache-control']).toContain('immutable');
    expect((await app.inject('/chat/assets/missing.js')).statusCode).toBe(404);
    expect((await app.inject('/chat/.built')).statusCode).toBe(404);
    expect((await app.inject('/chat/../package.json')).statusCode).not.toBe(200);
    expect((await app.inject('/chat/index.html')).headers['location']).toBe('/chat/');
  });

  it('says how to build the chat when it is not built', async () => {
    const app = await appOver(mkdtempSync(join(tmpdir(), 'baton-chat-none-')));
    const res = await app.inject('/chat/');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ error: { code: 'chat_not_built' } });
  });

  it('takes only bare origins as embed origins', () => {
    expect(ServeConfigSchema.parse({ chat: { embedOrigins: ['https://shop.example.com', 'http://localhost:8080'] } }).chat).toEqual({
      embedOrigins: ['https://shop.example.com', 'http://localhost:8080'],
    });
    expect(ServeConfigSchema.parse({}).chat).toEqual({ embedOrigins: [] });
    for (const bad of [
      'https://shop.example.com/',
      "https://a.example; script-src 'unsafe-inline'",
      '*',
      'shop.example.com',
      'javascript:x',
    ]) {
      expect(ServeConfigSchema.safeParse({ chat: { embedOrigins: [bad] } }).success, bad).toBe(false);
    }
  });
});
