/**
 * What makes a run folder one run: the configuration, the code (git SHA), the domain's data and
 * the set of planned episodes. A run started again in the same folder continues only when all of
 * them are what they were; otherwise the new episodes would be measured on something else and
 * reported under the old name. `--force-resume` overrides, and `run.json` records that it did.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Domain } from '../../domains/domain.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The commit checked out in `root` (a clone or a worktree), or null outside a git checkout. */
export function gitSha(root: string = process.cwd()): string | null {
  try {
    let gitDir = resolve(root, '.git');
    // A worktree's `.git` is a file naming its git directory; its refs live in the common one.
    if (statSync(gitDir).isFile())
      gitDir = resolve(
        root,
        readFileSync(gitDir, 'utf8')
          .trim()
          .replace(/^gitdir:\s*/, ''),
      );
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice('ref: '.length);
    const commonFile = join(gitDir, 'commondir');
    const common = existsSync(commonFile) ? resolve(gitDir, readFileSync(commonFile, 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, common]) {
      if (existsSync(join(dir, ref))) return readFileSync(join(dir, ref), 'utf8').trim();
    }
    const packed = join(common, 'packed-refs');
    if (!existsSync(packed)) return null;
    const line = readFileSync(packed, 'utf8')
      .split('\n')
      .find((l) => l.endsWith(` ${ref}`));
    return line?.split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * A checksum of the code that runs: every module of the tree this file was loaded from (`dist/`
 * after a build, `src/` under a TypeScript loader). The git SHA misses an edit not yet committed;
 * this does not, so a run continued after editing an agent is refused like one after a commit.
 */
export function codeChecksum(root: string = dirname(dirname(dirname(fileURLToPath(import.meta.url))))): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      // Tests are not the code a run runs.
      else if (/\.(js|ts)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) {
        hash
          .update(`${relative(root, path)}\0`)
          .update(readFileSync(path))
          .update('\0');
      }
    }
  };
  walk(root);
  return hash.digest('hex');
}

/** The folder Baton is installed in (its package.json): `dist/` and `src/` sit one level below it. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Baton's version, from its package.json (null when it cannot be read). */
export function packageVersion(): string | null {
  try {
    return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** A checksum of the domain's data as the run sees it: policy, tools, tasks and initial database. */
export function domainChecksum(domain: Domain): string {
  return sha256(JSON.stringify({ policy: domain.policy, tools: domain.tools, tasks: domain.tasks, db: domain.initialDb }));
}

/** A checksum of the planned episodes' keys, in order: the run's task set. */
export function taskSetChecksum(keys: readonly string[]): string {
  return sha256(keys.join('\n'));
}

/** The identity of a run as `run.json` records it. */
export interface RunIdentity {
  config: unknown;
  git_sha: string | null;
  code_checksum: string;
  domain_checksum: string;
  task_set_checksum: string;
  planned_episodes: number;
}

/**
 * How the run in a folder differs from the one about to continue it, one line per difference
 * (empty: the same run). Checksums an older `run.json` lacks are not compared.
 */
export function runDifferences(previous: Partial<Record<keyof RunIdentity, unknown>>, current: RunIdentity): string[] {
  const differences: string[] = [];
  const before = (previous.config ?? {}) as Record<string, unknown>;
  const now = current.config as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])];
  for (const key of keys) {
    if (JSON.stringify(before[key]) !== JSON.stringify(now[key])) {
      differences.push(`configuration ${key}: ${JSON.stringify(before[key] ?? null)} then, ${JSON.stringify(now[key] ?? null)} now`);
    }
  }
  if ((previous.git_sha ?? null) !== current.git_sha) {
    differences.push(`git SHA: ${String(previous.git_sha ?? 'none')} then, ${current.git_sha ?? 'none'} now (the code changed)`);
  }
  if (previous.code_checksum !== undefined && previous.code_checksum !== current.code_checksum) {
    differences.push('code: the modules that run differ (an edit, committed or not, or another build)');
  }
  if (previous.domain_checksum !== undefined && previous.domain_checksum !== current.domain_checksum) {
    differences.push("domain data: the domain's policy, tools, tasks or database changed");
  }
  if (previous.task_set_checksum !== undefined && previous.task_set_checksum !== current.task_set_checksum) {
    differences.push('task set: the planned episodes changed');
  }
  return differences;
}
