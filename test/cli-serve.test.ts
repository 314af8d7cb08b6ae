import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
    const { conversation, customerToken } = (await (await fetch(`${first.url}/v1/conversations`, { method: 'POST' })).json()) as {
      conversation: { id: string };
      customerToken: string;
    };
    const auth = { authorization: `Bearer ${customerToken}` };
    const posted = await fetch(`${first.url}/v1/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'first', ...auth },
      body: JSON.stringify({ text: 'my card was charged twice' }),
    });
    expect(posted.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);

    const second = await start();
    const read = (await (await fetch(`${second.url}/v1/conversations/${conversation.id}/messages`, { headers: auth })).json()) as {
      messages: Array<{ from: string; text: string }>;
    };
    // What was acknowledged survived the restart; the agent's answer came before or after it.
    expect(read.messages[0]).toMatchObject({ from: 'customer', text: 'my card was charged twice' });
    // Another conversation's token (or none) reads nothing.
    expect((await fetch(`${second.url}/v1/conversations/${conversation.id}/messages`)).status).toBe(401);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  it('refuses a configuration file with bad fields, naming each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-config-'));
    const config = join(dir, 'baton.config.json');
    writeFileSync(
      config,
      JSON.stringify({ domain: 'billing', agents: [{ id: 'agent_front', policy: 'rule', handoffTo: ['agent_nobody'] }], colour: 'red' }),
    );
    const child = baton(['serve', '--port', '0', '--store', 'memory', '--config', config]);
    children.push(child);
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    expect(await exited(child)).not.toBe(0);
    expect(err).toMatch(/colour/);
    expect(err).toMatch(/agents\.0\.handoffTo\.0: there is no agent agent_nobody/);
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
