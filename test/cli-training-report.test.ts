/**
 * `baton report --training RUN` (built dist/, through bin/baton.js): a monitor folder written by the
 * training monitor from a scripted run of seed 000's curve becomes one HTML page with a plot per
 * figure over the steps, the alert's window shaded and its numbers written out.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { monitorFileSink, TrainingMonitor } from '../src/lab/monitor/index.js';
import { FLAT_CURVE, LOOPHOLE_CURVE, scriptedTrainingRun, type TrainingCurve } from '../src/testing/scripted-training-run.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const baton = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: process.env['HOME'] } });

/** A monitor folder of a scripted run (its episodes drawn from `curve`, not played). */
function monitorDir(curve: TrainingCurve): string {
  const dir = mkdtempSync(join(tmpdir(), `baton-training-${curve.name}-`));
  const monitor = new TrainingMonitor({
    config: { windowEpisodes: 2048 },
    sink: monitorFileSink(dir),
    about: { curve: curve.name, note: '<scripted & escaped>' },
  });
  for (const { episodes } of scriptedTrainingRun({ curve, seed: 5, episodesPerStep: 2048 })) monitor.record(episodes);
  return dir;
}

let loophole: string;
beforeAll(() => {
  loophole = monitorDir(LOOPHOLE_CURVE);
});

describe('baton report --training', () => {
  it('draws the curves of a training run, the alert windows shaded, and prints the alerts', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'baton-training-report-')), 'training.html');
    const run = baton(['report', '--training', loophole, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^60 training steps, [1-9]\d* alerts\n/);
    expect(run.stdout).toMatch(/ALERT alert_1 \((handoff_rate|over_escalation), steps \d+–\d+\): .*climbed from/);
    expect(run.stdout).toContain(`Report: ${out}`);

    const { document } = parseHTML(readFileSync(out, 'utf8'));
    const ids = [...document.querySelectorAll('figure.plot')].map((f) => f.getAttribute('id'));
    expect(ids).toEqual([
      'curve-success',
      'curve-handoff-rate',
      'curve-over-escalation',
      'curve-missed',
      'curve-citation',
      'curve-reward',
      'curve-components',
    ]);
    const count = (selector: string) => document.querySelectorAll(selector).length;
    expect(count('#curve-over-escalation svg')).toBeGreaterThan(0);
    // 60 steps drawn as a line with a dot per step; the alert window as a shaded rectangle.
    expect(count('#curve-over-escalation circle')).toBe(60);
    expect(count('#curve-over-escalation g[fill="#c62828"] rect')).toBeGreaterThan(0);
    expect(document.querySelector('#curve-over-escalation figcaption')?.textContent).toMatch(/Shaded: the steps of alert_\d/);
    // Curves without alerts of their own are not shaded.
    expect(count('#curve-missed g[fill="#c62828"] rect')).toBe(0);
    expect(document.querySelector('div.alert')?.textContent).toMatch(/steps \d+–\d+.*climbed from \d+\.\d% to \d+\.\d%/s);
    expect(document.querySelectorAll('table.steps tbody tr').length).toBe(30);
    // What the file says is escaped, never markup.
    expect(document.querySelector('p.sub')?.textContent).toContain('<scripted & escaped>');
    expect(document.querySelectorAll('script')).toHaveLength(0);
  });

  it('says so when a run raised no alert', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'baton-training-report-')), 'flat.html');
    const run = baton(['report', '--training', monitorDir(FLAT_CURVE), '--out', out]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^60 training steps, 0 alerts\n/);
    expect(readFileSync(out, 'utf8')).toContain('id="no-alerts"');
  });

  it('refuses what it cannot draw, saying why', () => {
    const missing = baton(['report', '--training', join(tmpdir(), 'baton-no-such-monitor'), '--out', join(tmpdir(), 'x.html')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no such file \(a training monitor's folder holds monitor\.jsonl\)/);
    const both = baton(['report', 'some-run', '--training', loophole, '--out', join(tmpdir(), 'y.html')]);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/--training draws one training run/);
    const none = baton(['report', '--out', join(tmpdir(), 'z.html')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/report needs run folders \(or --training <monitor dir>\)/);
    expect(existsSync(join(tmpdir(), 'x.html'))).toBe(false);
  });
});
