import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runReportCommand } from '../src/cli/report-command.js';
import { runEval, type EvalConfig } from '../src/lab/eval/run-eval.js';
import { writeRunMetrics } from '../src/lab/eval/run-metrics.js';
import { buildReport, loadRuns } from '../src/lab/report/index.js';
import { makeRun } from './support/lab-runs.js';
import { tau2DirForTests } from './support/tau2-dir.js';

// Reports that cannot lie: a partial run says so, unlike runs are not put in one table, and no path of the machine leaks.

async function run(root: string, name: string, config: Partial<EvalConfig>): Promise<string> {
  const full: EvalConfig = {
    domain: 'billing',
    tasks: 'handoff',
    split: 'dev',
    agent: 'rule',
    user: 'scripted',
    styles: ['neutral'],
    trials: 1,
    concurrency: 4,
    seed: 3,
    store: { kind: 'memory' },
    out: join(root, name),
    force: false,
    ...config,
  };
  const result = await runEval(full);
  await writeRunMetrics(result, full);
  return result.runDir;
}

describe('baton report, honestly', () => {
  let root: string;
  let dirs: { rule: string; never: string; partial: string; main: string; airline: string };
  let planned: number;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'baton-report-honest-'));
    dirs = {
      rule: await makeRun(root, 'rule'),
      never: await makeRun(root, 'never-transfer'),
      partial: await makeRun(join(root, 'interrupted'), 'rule'),
      main: await run(root, 'main', { tasks: 'main', limit: 3 }),
      airline: await run(root, 'airline', { domain: 'airline', limit: 2, tau2Dir: tau2DirForTests() }),
    };
    // An interrupted run: the first 5 episodes on disk, no metrics written yet.
    const file = join(dirs.partial, 'trajectories.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    planned = lines.length;
    writeFileSync(file, `${lines.slice(0, 5).join('\n')}\n`);
    rmSync(join(dirs.partial, 'metrics.json'));
  }, 180_000);

  it('says "partial: N of M episodes" of an interrupted run, in the terminal and in the HTML', async () => {
    expect(planned).toBeGreaterThan(5);
    let printed = '';
    await runReportCommand({ runDirs: [dirs.partial], out: join(root, 'partial.html'), write: (t) => (printed += t) });
    expect(printed.split('\n')[0]).toBe(`WARNING rule: partial: 5 of ${planned} episodes`);
    const html = readFileSync(join(root, 'partial.html'), 'utf8');
    expect(html).toContain(
      `<div class="warnings" id="warnings"><p>rule: partial: 5 of ${planned} episodes; its figures are of the episodes that ran.</p></div>`,
    );
    // A whole run says nothing of the kind.
    const whole = await buildReport([dirs.rule]);
    expect(whole).not.toContain('partial:');
    expect(whole).not.toContain('id="warnings"');
  });

  it('says how many episodes the infrastructure failed, leaves them out, and marks them in the viewer', async () => {
    const dir = await makeRun(join(root, 'outage'), 'never-transfer');
    const file = join(dir, 'trajectories.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const first = JSON.parse(lines[0] as string) as { key: string; termination: string };
    // The simulated customer's endpoint failed in the first episode.
    lines[0] = JSON.stringify({ ...first, termination: 'user_error' });
    writeFileSync(file, `${lines.join('\n')}\n`);
    rmSync(join(dir, 'metrics.json'));
    let printed = '';
    await runReportCommand({ runDirs: [dir], out: join(root, 'outage.html'), write: (t) => (printed += t) });
    expect(printed.split('\n')[0]).toBe(`WARNING never-transfer: 1 of ${lines.length} episodes infrastructure-failed, left out`);
    const [loaded] = await loadRuns([dir]);
    expect(loaded?.metrics.counts.episodes).toBe(lines.length - 1);
    const html = readFileSync(join(root, 'outage.html'), 'utf8');
    expect(html).toContain(`never-transfer: 1 of ${lines.length} episodes failed for infrastructure reasons and are left out.`);
    const data = JSON.parse(/<script type="application\/json" id="episodes">([^<]*)<\/script>/.exec(html)?.[1] ?? 'null') as {
      episodes: { key: string; inf?: string }[];
    };
    expect(data.episodes.filter((e) => e.inf !== undefined)).toEqual([expect.objectContaining({ key: first.key, inf: 'user_error' })]);
  });

  it('refuses runs of different domains or task sets in one table unless asked, and then says so', async () => {
    await expect(loadRuns([dirs.rule, dirs.airline])).rejects.toThrow(
      /different domains or task sets: rule \(billing handoff dev v1 .*\), airline \(airline handoff dev .*\).*--allow-mixed/,
    );
    await expect(loadRuns([dirs.rule, dirs.main])).rejects.toThrow(
      /different domains or task sets: rule \(billing handoff dev .*\), main \(billing main dev v1 limit 3 variants [0-9a-f]{12}\)\. Compare like with like/,
    );
    await expect(
      runReportCommand({ runDirs: [dirs.rule, dirs.main], out: join(root, 'mixed.html'), write: () => undefined }),
    ).rejects.toThrow(/--allow-mixed/);
    // Runs of the same task set compare as before.
    expect(await loadRuns([dirs.rule, dirs.never])).toHaveLength(2);
    const mixed = await buildReport([dirs.rule, dirs.airline], { allowMixed: true });
    expect(mixed).toContain('These runs are of different domains or task sets (--allow-mixed)');
  });

  it('embeds no absolute path', async () => {
    const html = await buildReport([dirs.rule, dirs.never, dirs.main], { allowMixed: true });
    expect(html).toContain('<span class="sub">(main)</span>');
    expect(html).not.toContain(root);
    expect(html).not.toContain(tmpdir());
    expect(html).not.toContain(process.cwd());
  });
});
