/**
 * The lab's runs in the console: `baton serve` pointed at a runs folder with a real run and its
 * report lists them to supervisors (GET /v1/lab/runs) and serves the report under a sandboxing
 * CSP; agents are refused; a path that leaves the folder is refused. In Chromium, the "Lab runs"
 * screen lists the run and links the report, with no serious accessibility violation.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReportCommand } from '../src/cli/report-command.js';
import { axe, browsers, json, newPage, ROOT, signIn } from './support/console-page.js';
import { makeRun } from './support/lab-runs.js';
import { startTestRuntime, type TestRuntime } from './support/runtime-server.js';

let runtime: TestRuntime;
let folder: string;
let runsDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-console.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  folder = mkdtempSync(join(tmpdir(), 'baton-lab-runs-'));
  runsDir = join(folder, 'runs');
  const run = await makeRun(join(runsDir, 'nightly'), 'rule');
  await runReportCommand({ runDirs: [run], out: join(runsDir, 'nightly', 'report.html'), write: () => {} });
  runtime = await startTestRuntime('sqlite', { runsDir });
}, 300_000);

afterAll(async () => {
  for (const b of browsers.splice(0)) await b.close().catch(() => {});
  await runtime?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("the lab's runs for supervisors", () => {
  it('lists the run and its report, serves the report sandboxed, and refuses agents and paths out of the folder', async () => {
    const sup = await runtime.staff('supervisor');
    const agent = await runtime.staff('agent', ['billing']);
    const listed = await json(runtime.base, '/v1/lab/runs', { token: sup.token });
    expect(listed.status).toBe(200);
    expect(listed.body['reports']).toEqual([expect.objectContaining({ path: 'nightly' })]);
    const runs = listed.body['runs'] as Array<{ path: string; domain: string; agent: string; episodes: number }>;
    expect(runs).toEqual([expect.objectContaining({ path: 'nightly/rule', domain: 'billing', agent: 'rule' })]);
    expect(runs[0]!.episodes).toBeGreaterThan(0);
    expect(Date.parse((runs[0] as unknown as { startedAt: string }).startedAt)).toBeGreaterThan(Date.parse('2026-01-01'));
    // No absolute path of the server's machine in the answer.
    expect(JSON.stringify(listed.body)).not.toContain(folder);

    expect((await json(runtime.base, '/v1/lab/runs', { token: agent.token })).status).toBe(403);
    expect((await fetch(`${runtime.base}/v1/lab/runs`)).status).toBe(401);

    const report = await fetch(`${runtime.base}/v1/lab/report?path=nightly`, { headers: { authorization: `Bearer ${sup.token}` } });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toMatch(/^text\/html/);
    expect(report.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts;/);
    expect(await report.text()).toMatch(/<html/i);
    for (const path of ['..', '../..', 'nightly/../..', '/etc', 'nightly/rule/../../..']) {
      const res = await fetch(`${runtime.base}/v1/lab/report?path=${encodeURIComponent(path)}`, {
        headers: { authorization: `Bearer ${sup.token}` },
      });
      expect(res.status, path).toBe(400);
    }
    expect((await fetch(`${runtime.base}/v1/lab/report?path=nowhere`, { headers: { authorization: `Bearer ${sup.token}` } })).status).toBe(
      404,
    );
    expect(
      (await fetch(`${runtime.base}/v1/lab/report?path=nightly`, { headers: { authorization: `Bearer ${agent.token}` } })).status,
    ).toBe(403);
  });

  it('the "Lab runs" screen lists them and opens the report', async () => {
    const sup = await runtime.staff('supervisor');
    const { page, errors } = await newPage();
    await signIn(page, runtime.base, sup);
    await page.getByRole('link', { name: 'Lab runs' }).click();
    await page.getByTestId('lab-runs').waitFor();
    await expect(page.getByTestId('lab-runs').textContent()).resolves.toContain('nightly/rule');
    const link = page.getByTestId('lab-reports').getByRole('link', { name: 'nightly' });
    const opened = page.context().waitForEvent('page');
    await link.click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toContain('/v1/lab/report?path=nightly');
    await axe(page, 'lab runs');
    expect(errors).toEqual([]);
  });
});
