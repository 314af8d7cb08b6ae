import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveTau2Data, Tau2DataError } from '../src/domains/tau2/tau2-data.js';
import { TAU2_MANIFEST } from '../src/domains/tau2/tau2-manifest.js';
import { tau2DirForTests } from './support/tau2-dir.js';

const shared = tau2DirForTests();
const tmp = () => mkdtempSync(join(tmpdir(), 'baton-tau2-'));
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A real HTTP server that serves the pinned upstream paths from a local copy; `corrupt` flips one file. */
async function upstream(options: { corrupt?: string } = {}): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const entry = TAU2_MANIFEST.find((e) => req.url === `/${e.commit}/${e.upstream}`);
    if (!entry) return void res.writeHead(404).end('not found');
    let body = readFileSync(join(shared, entry.file));
    if (entry.file === options.corrupt) body = Buffer.concat([body, Buffer.from(' ')]);
    res.writeHead(200).end(body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, hits };
}

const noEnv = { env: {} as NodeJS.ProcessEnv };

describe('tau2-bench data: loaded and checked, never redistributed', () => {
  it('reads a folder given by --tau2-dir or BATON_TAU2_DIR, checking every file', async () => {
    const fromFlag = await resolveTau2Data({ dir: shared, ...noEnv });
    expect(fromFlag).toMatchObject({ dir: shared, source: 'folder', commit: 'a2c024725189473d2d7cea3a5cfdbcc67478e41f' });
    expect(fromFlag.read('airline/policy.md')).toMatch(/airline/i);
    expect((await resolveTau2Data({ env: { BATON_TAU2_DIR: shared } })).source).toBe('folder');
  });

  it('fails a corrupted file with a message naming it and its expected checksum', async () => {
    const dir = tmp();
    cpSync(shared, dir, { recursive: true });
    writeFileSync(join(dir, 'retail', 'policy.md'), `${readFileSync(join(dir, 'retail', 'policy.md'), 'utf8')}\nEdited.`);
    const attempt = resolveTau2Data({ dir, ...noEnv });
    await expect(attempt).rejects.toThrow(Tau2DataError);
    await expect(attempt).rejects.toThrow(/retail\/policy\.md .* fails its checksum: .* expected 2c9652afbce5/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the missing file of an incomplete folder', async () => {
    const dir = tmp();
    cpSync(join(shared, 'airline'), join(dir, 'airline'), { recursive: true });
    await expect(resolveTau2Data({ dir, ...noEnv })).rejects.toThrow(/has no retail\/db\.json.*--tau2-dir or BATON_TAU2_DIR/);
  });

  it('offline with no folder given: the error says what to set', async () => {
    // Port 9 on loopback: nothing listens, the connection is refused, as offline.
    const attempt = resolveTau2Data({ ...noEnv, cacheDir: tmp(), baseUrl: 'http://127.0.0.1:9' });
    await expect(attempt).rejects.toThrow(/Could not download .*Set --tau2-dir or BATON_TAU2_DIR/);
  });

  it('downloads the pinned files over HTTP into the cache once, then reads the cache', async () => {
    const cacheDir = tmp();
    const server = await upstream();
    const first = await resolveTau2Data({ ...noEnv, cacheDir, baseUrl: server.url });
    expect(first.source).toBe('download');
    expect(server.hits).toHaveLength(TAU2_MANIFEST.length);
    expect(server.hits).toContain('/37199f36924c8896f5e048360691f8476cd89ba1/data/tau2/domains/retail/tasks.json');
    expect(first.read('retail/release-37199f3/tasks.json')).toBe(
      readFileSync(join(shared, 'retail', 'release-37199f3', 'tasks.json'), 'utf8'),
    );
    const again = await resolveTau2Data({ ...noEnv, cacheDir, baseUrl: 'http://127.0.0.1:9' });
    expect(again.source).toBe('cache');
  });

  it('keeps nothing from a download that fails its checksum', async () => {
    const cacheDir = tmp();
    const server = await upstream({ corrupt: 'airline/tasks.json' });
    await expect(resolveTau2Data({ ...noEnv, cacheDir, baseUrl: server.url })).rejects.toThrow(
      /download of airline\/tasks\.json .* fails its checksum/,
    );
    const retry = await upstream();
    const fixed = await resolveTau2Data({ ...noEnv, cacheDir, baseUrl: retry.url });
    expect(fixed.source).toBe('download');
    expect(retry.hits.some((h) => h.endsWith('airline/tasks.json'))).toBe(true);
  });
});
