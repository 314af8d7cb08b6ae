import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The CLI's manners: a closed pipe, Ctrl-C, a wrong flag, and billing without tau2-bench's data.

const BIN = join(import.meta.dirname, '..', 'bin', 'baton.js');
const fresh = () => mkdtempSync(join(tmpdir(), 'baton-manners-'));
/** An environment without tau2-bench's data: no BATON_TAU2_DIR, an empty home and download cache. */
const bare = (home: string) => ({ PATH: process.env['PATH'], HOME: home, XDG_CACHE_HOME: join(home, 'cache') });

describe('baton on a closed pipe', () => {
  it('ends quietly when the reader has gone (… | head), without a stack trace', async () => {
    const child = spawn(process.execPath, [BIN, 'tasks', 'list', '--domain', 'billing'], {
      env: bare(fresh()),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader closes before the first line is written: every write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code, signal] = (await new Promise((resolve) => child.once('close', (...args) => resolve(args)))) as [
      number | null,
      string | null,
    ];
    expect(stderr).toBe('');
    expect(signal).toBeNull();
    expect(code).toBe(0);
  });
});

describe('baton on a flag error', () => {
  it.each([
    [['eval', '--domain', 'billing', '--out', 'x', '--bogus'], /^error: unknown option '--bogus'$/],
    [
      ['eval', '--domain', 'nope', '--out', 'x'],
      /^error: option '--domain <domain>' argument 'nope' is invalid\. Allowed choices are airline, retail, billing\.$/,
    ],
    [['eval', '--domain', 'billing'], /^error: required option '--out <dir>' not specified$/],
    [['tasks', 'list'], /^error: required option '--domain <domain>' not specified$/],
  ])('%j says what is wrong in one short line, the last, with no help above it', (args, message) => {
    const run = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', cwd: fresh(), env: bare(fresh()) });
    expect(run.status).not.toBe(0);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(message);
    expect(lines).toHaveLength(1);
    expect(run.stdout).toBe('');
  });
});

describe('billing without tau2-bench data', () => {
  it('tasks stats --domain billing counts billing with no tau2-bench data anywhere', () => {
    const home = fresh();
    const run = spawnSync(process.execPath, [BIN, 'tasks', 'stats', '--domain', 'billing', '--json'], {
      encoding: 'utf8',
      cwd: home,
      env: bare(home),
    });
    expect(run.status, run.stderr).toBe(0);
    const stats = JSON.parse(run.stdout) as Record<string, { total: number; positives: number; negatives: number }>;
    expect(Object.keys(stats)).toEqual(['billing']);
    expect(stats['billing']?.total).toBeGreaterThan(100);
    expect(stats['billing']?.total).toBe((stats['billing']?.positives ?? 0) + (stats['billing']?.negatives ?? 0));
  });

  it('tasks list and eval on billing need no tau2-bench data either', () => {
    const home = fresh();
    const list = spawnSync(process.execPath, [BIN, 'tasks', 'list', '--domain', 'billing', '--json'], {
      encoding: 'utf8',
      cwd: home,
      env: bare(home),
    });
    expect(list.status, list.stderr).toBe(0);
    const evaluated = spawnSync(
      process.execPath,
      [BIN, 'eval', '--domain', 'billing', '--styles', 'neutral', '--limit', '2', '--out', join(home, 'run')],
      {
        encoding: 'utf8',
        cwd: home,
        env: bare(home),
      },
    );
    expect(evaluated.status, evaluated.stderr).toBe(0);
  });
});

describe('Ctrl-C during baton eval', () => {
  // script(1) is util-linux's, on every Debian machine (bsdutils is essential): the test needs it and says so if absent.
  it('gives the terminal back its cursor and line wrap, and exits 130', async () => {
    expect(spawnSync('script', ['--version'], { encoding: 'utf8' }).status, 'script(1) from util-linux is needed').toBe(0);
    const home = fresh();
    const command = [
      process.execPath,
      BIN,
      'eval',
      '--domain',
      'billing',
      '--styles',
      'all',
      '--trials',
      '3',
      '--concurrency',
      '1',
      '--out',
      join(home, 'run'),
    ];
    // A real terminal (script(1) gives the command a pty); ^C typed into it is the terminal's SIGINT to the process.
    const child = spawn('script', ['-qfec', command.map((a) => `'${a}'`).join(' '), '/dev/null'], {
      env: { ...bare(home), TERM: 'xterm', COLUMNS: '120' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let typed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString('latin1');
      // Once the bar is drawn: the cursor is hidden and line wrap off.
      if (!typed && screen.includes('\x1b[?25l') && screen.includes('episodes [')) {
        typed = true;
        child.stdin.write('\x03');
      }
    });
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(typed).toBe(true);
    expect(code).toBe(130);
    const afterHide = screen.slice(screen.lastIndexOf('\x1b[?25l'));
    expect(afterHide).toContain('\x1b[?25h');
    expect(afterHide).toContain('\x1b[?7h');
    expect(screen.trimEnd()).toMatch(/interrupted; the same command continues the run\.$/);
  });
});
