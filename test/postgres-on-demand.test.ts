/**
 * PostgreSQL is started only for the test files that use it (issue 17): a vitest run of a file that
 * needs none passes where no PostgreSQL can be had, and a file that needs one fails, saying why (it
 * is not skipped). One nested run of vitest over one file of each kind, with BATON_PG_URL pointing
 * at a port where nothing listens.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface JsonReport {
  testResults: { name: string; status: string; message: string; assertionResults: { status: string; failureMessages: string[] }[] }[];
}

describe('PostgreSQL on demand', () => {
  it('passes the files that need no PostgreSQL without one, and fails the file that needs it with the reason', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'baton-pg-on-demand-')), 'report.json');
    const run = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        'src/lab/report/failure-reasons.test.ts',
        'test/postgres-options.test.ts',
        '--reporter=json',
        `--outputFile=${out}`,
      ],
      { env: { ...process.env, BATON_PG_URL: 'postgres://baton@127.0.0.1:9/nothing' }, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(out, 'utf8')) as JsonReport;
    const byFile = new Map(report.testResults.map((r) => [r.name.replace(/^.*?(src|test)\//, '$1/'), r]));
    const plain = byFile.get('src/lab/report/failure-reasons.test.ts');
    expect(plain?.status).toBe('passed');
    expect(plain?.assertionResults.length).toBeGreaterThan(0);
    expect(plain?.assertionResults.every((a) => a.status === 'passed')).toBe(true);
    const pg = byFile.get('test/postgres-options.test.ts');
    expect(pg?.status).toBe('failed');
    const messages = [pg?.message ?? '', ...(pg?.assertionResults ?? []).flatMap((a) => a.failureMessages)].join('\n');
    expect(messages).toMatch(
      /this test needs PostgreSQL, and none could be started: the PostgreSQL server at BATON_PG_URL does not answer/,
    );
    expect(pg?.assertionResults.some((a) => a.status === 'skipped' || a.status === 'pending')).toBe(false);
  });
});
