/**
 * `baton audit`: the loophole audit on the command line (see `src/lab/audit.ts`). The table and
 * one sentence per finding go to stdout (or the JSON result with `--json`); progress to stderr.
 */
import { join } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { DomainName } from '../domains/domain.js';
import { loadDomain } from '../domains/load-domain.js';
import { auditText, runAudit } from '../lab/audit.js';
import { evalProgress } from '../lab/eval/progress.js';
import { parseRewardNames } from '../rewards/index.js';
import { rewardOptionsFrom } from './reward-options.js';
import { parseStyles } from './eval-command.js';

export interface AuditCommandOptions {
  domain: DomainName;
  tasks: 'handoff' | 'main';
  split: 'train' | 'dev';
  rewards: string;
  styles: string;
  trials: number;
  concurrency: number;
  seed: number;
  out?: string;
  /** Random policies in the generic search; `search: false` (`--no-search`) skips it. */
  random: number;
  search: boolean;
  rewardConfig?: string;
  tau2Dir?: string;
  json?: boolean;
}

/** Runs `baton audit` with parsed options; the audit's text or JSON goes to stdout. */
export async function runAuditCommand(opts: AuditCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  let rewards;
  try {
    rewards = parseRewardNames(opts.rewards);
  } catch (error) {
    throw new InvalidArgumentError(`--rewards: ${(error as Error).message}`);
  }
  const styles = parseStyles(opts.styles);
  const domain = await loadDomain(opts.domain, opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {});
  const rewardOptions = rewardOptionsFrom(opts.rewardConfig, domain, env);
  const result = await runAudit({
    domain: opts.domain,
    tasks: opts.tasks,
    split: opts.split,
    rewards,
    rewardOptions,
    styles,
    trials: opts.trials,
    concurrency: opts.concurrency,
    seed: opts.seed,
    out: opts.out ?? join('runs', 'audit', `${opts.domain}-${opts.tasks}-${opts.split}`),
    search: opts.search === false ? false : opts.random,
    ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
    progress: (policy) => evalProgress(process.stderr, policy),
  });
  process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `\n${auditText(result)}\n`);
}
