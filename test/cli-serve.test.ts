import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The real entry point a user runs: bin/baton.js over the build that `npm test` makes first.
const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');

function baton(args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Collects a child's stderr until `pattern` appears; rejects if the child exits first. */
function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const match = err.match(pattern);
      if (match) resolve(match);
    });
    child.on('exit', (code) => reject(new Error(`baton exited ${code} before ${pattern}: ${err}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe('baton serve (the main job on the embedded default)', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it('serves on SQLite, keeps what it acknowledged across a restart, and stops cleanly on SIGTERM', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'baton-serve-')), 'baton.sqlite');
    const start = async () => {
      const child = baton(['serve', '--port', '0', '--db', db]);
      children.push(child);
      const [, url] = (await waitFor(child, /serving on (http:\/\/\S+)/)) as [string, string];
      return { child, url };
    };
    const first = await start();
    expect(await (await fetch(`${first.url}/health`)).json()).toEqual({ status: 'ok', store: 'sqlite' });
    const { conversation } = (await (await fetch(`${first.url}/v1/conversations`, { method: 'POST' })).json()) as {
      conversation: { id: string };
    };
    const posted = await fetch(`${first.url}/v1/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'first' },
      body: JSON.stringify({ text: 'my card was charged twice' }),
    });
    expect(posted.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);

    const second = await start();
    const read = (await (await fetch(`${second.url}/v1/conversations/${conversation.id}`)).json()) as { messages: Array<{ text: string }> };
    expect(read.messages.map((m) => m.text)).toEqual(['my card was charged twice']);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  it('refuses bad flags before doing anything, saying what to set', async () => {
    const child = baton(['serve', '--store', 'postgres']);
    children.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(child)).toBe(2);
    expect(err).toMatch(/--pg-url or BATON_PG_URL/);
  });
});
