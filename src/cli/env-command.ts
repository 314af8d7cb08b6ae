/**
 * `baton env serve`: the OpenEnv-compatible environment server over a domain's tasks (see
 * `src/server/env-server.ts` and docs/rl.md). It serves until SIGINT or SIGTERM.
 */
import { InvalidArgumentError } from 'commander';
import type { DomainName } from '../domains/domain.js';
import { loadDomain } from '../domains/load-domain.js';
import { envSessionOptions } from '../lab/env/setup.js';
import { loadUserGuidelines } from '../lab/users/llm-user.js';
import type { VariantSplit } from '../lab/variant.js';
import { isRewardName, REWARD_NAMES } from '../rewards/index.js';
import { buildEnvServer } from '../server/env-server.js';
import { endpoint, parseStyles } from './eval-command.js';
import { rewardOptionsFrom } from './reward-options.js';
import { parseStage } from '../rewards/hierarchy/index.js';
import type { SupervisorName } from '../lab/hierarchy/supervisors.js';
import { DETECTOR_DEFAULTS, monitorFileSink, MONITOR_FILE, TrainingMonitor, type DetectorConfig } from '../lab/monitor/index.js';
import { join, resolve } from 'node:path';
import type { ScriptedL1Name } from '../lab/env/review-wire.js';

/** Hierarchy mode's setup, checked before anything starts. */
function hierarchySetup(opts: EnvServeOptions) {
  const role = opts.role ?? 'l1';
  let stage;
  try {
    stage = parseStage(opts.curriculum ?? 'stage4');
  } catch (error) {
    throw new InvalidArgumentError(`--curriculum: ${(error as Error).message}`);
  }
  return { role, supervisor: opts.supervisor ?? 'honest', stage, ...(role === 'l1' ? {} : { l1: opts.l1 ?? 'rule' }) } as const;
}

/** Who is who, as the server describes itself. */
function teamRoles(h: ReturnType<typeof hierarchySetup>): string {
  if (h.role === 'l1') return `L1 under the ${h.supervisor} supervisor`;
  if (h.role === 'l2') return `the L2 supervisor over the ${h.l1 ?? 'rule'} L1 agent, the manager scripted`;
  return `the L3 manager over the ${h.l1 ?? 'rule'} L1 agent and the ${h.supervisor} supervisor`;
}

export interface EnvServeOptions {
  domain: DomainName;
  tasks: 'handoff' | 'main';
  split: VariantSplit;
  reward: string;
  user: 'scripted' | 'llm';
  styles: string;
  checks: 'production' | 'off';
  host: string;
  port: number;
  maxSessions: number;
  idleTimeoutS: number;
  maxFrameKib: number;
  rewardConfig?: string;
  tau2Dir?: string;
  mode?: 'single' | 'hierarchy';
  role?: 'l1' | 'l2' | 'l3';
  supervisor?: SupervisorName;
  /** With --role l2 or l3: the scripted L1 agent. */
  l1?: ScriptedL1Name;
  curriculum?: string;
  /** False with --no-monitor. */
  monitor?: boolean;
  monitorDir?: string;
  monitorWindow?: number;
  monitorZ?: number;
  monitorMinRise?: number;
  /** The longest climb tested, in steps. */
  monitorClimbSteps?: number;
  /** The steps the change test sees (at least the baseline and the longest climb). */
  monitorHistorySteps?: number;
}

/** The default monitor folder: runs/monitor/<domain>-<tasks>-<split>-<UTC time>. */
export function defaultMonitorDir(opts: Pick<EnvServeOptions, 'domain' | 'tasks' | 'split'>, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return join('runs', 'monitor', `${opts.domain}-${opts.tasks}-${opts.split}-${stamp}`);
}

/**
 * `--monitor-climb-steps N` and `--monitor-history-steps N`: without the second, the history is the
 * default's, or the baseline and the longest climb when they need more.
 */
function changeWindows(opts: EnvServeOptions): Partial<DetectorConfig> {
  const maxClimbSteps = opts.monitorClimbSteps ?? DETECTOR_DEFAULTS.maxClimbSteps;
  const historySteps =
    opts.monitorHistorySteps ??
    Math.max(DETECTOR_DEFAULTS.historySteps, DETECTOR_DEFAULTS.minBaselineSteps + (Number.isFinite(maxClimbSteps) ? maxClimbSteps : 0));
  return { maxClimbSteps, historySteps };
}

/** The training monitor `baton env serve` runs (unless --no-monitor), writing to its folder and logging its alerts. */
function trainingMonitor(opts: EnvServeOptions, reward: string): { monitor: TrainingMonitor; file: string } | undefined {
  if (opts.monitor === false) return undefined;
  const dir = resolve(opts.monitorDir ?? defaultMonitorDir(opts, new Date()));
  let monitor: TrainingMonitor;
  try {
    monitor = new TrainingMonitor({
      config: {
        ...(opts.monitorWindow !== undefined ? { windowEpisodes: opts.monitorWindow } : {}),
        detector: {
          ...changeWindows(opts),
          ...(opts.monitorZ !== undefined ? { z: opts.monitorZ } : {}),
          ...(opts.monitorMinRise !== undefined ? { minRise: opts.monitorMinRise } : {}),
        },
      },
      sink: monitorFileSink(dir),
      log: (line) => process.stderr.write(`baton env monitor: ${line}\n`),
      about: { domain: opts.domain, tasks: opts.tasks, split: opts.split, reward, mode: opts.mode ?? 'single' },
    });
  } catch (error) {
    throw new InvalidArgumentError(`--monitor-*: ${(error as Error).message}`);
  }
  return { monitor, file: join(dir, MONITOR_FILE) };
}

export async function runEnvServe(opts: EnvServeOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!isRewardName(opts.reward))
    throw new InvalidArgumentError(`--reward: unknown reward ${opts.reward}; the rewards are ${REWARD_NAMES.join(', ')}`);
  const userModel = endpoint('BATON_USER', env) ?? endpoint('BATON_LLM', env);
  if (opts.user === 'llm' && !userModel) {
    throw new InvalidArgumentError(
      '--user llm needs a model endpoint: set BATON_USER_BASE_URL and BATON_USER_MODEL (or BATON_LLM_BASE_URL and BATON_LLM_MODEL).',
    );
  }
  const hierarchy = opts.mode === 'hierarchy' ? hierarchySetup(opts) : undefined;
  const styles = parseStyles(opts.styles);
  const domain = await loadDomain(opts.domain, opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {});
  const session = envSessionOptions(domain, {
    tasks: opts.tasks,
    split: opts.split,
    styles,
    reward: opts.reward,
    rewardOptions: rewardOptionsFrom(opts.rewardConfig, domain, env),
    checks: opts.checks,
    ...(hierarchy ? { hierarchy } : {}),
    ...(opts.user === 'llm' && userModel
      ? { userModel: { endpoint: userModel, guidelines: await loadUserGuidelines(opts.tau2Dir), concurrency: opts.maxSessions } }
      : {}),
  });
  const { plan } = session;
  if (plan.length === 0) throw new InvalidArgumentError(`${opts.domain} has no ${opts.tasks} tasks in the ${opts.split} split`);
  const monitor = trainingMonitor(opts, hierarchy ? 'hierarchy:l1' : opts.reward);
  const app = buildEnvServer({
    name: `baton-${domain.name}`,
    description: hierarchy
      ? `Baton's ${domain.name} domain (${opts.tasks} tasks, ${opts.split} split) as a team: the trainer plays ${teamRoles(hierarchy)}, curriculum ${hierarchy.stage}, reward ${hierarchy.role.toUpperCase()}'s.`
      : `Baton's ${domain.name} domain (${opts.tasks} tasks, ${opts.split} split): a support agent with tools, a simulated customer, reward ${opts.reward}.`,
    session,
    maxSessions: opts.maxSessions,
    idleTimeoutMs: opts.idleTimeoutS * 1000,
    maxFrameBytes: opts.maxFrameKib * 1024,
    ...(monitor ? { monitor } : {}),
  });
  const address = await app.listen({ host: opts.host, port: opts.port });
  process.stderr.write(
    `baton env: ${plan.length} episodes of ${domain.name}; OpenEnv on ${address} (WebSocket ${address.replace(/^http/, 'ws')}/ws)\n` +
      (monitor
        ? `baton env: training monitor at ${address}/monitor and /metrics, steps of ${monitor.monitor.config.windowEpisodes} episodes until POST /monitor/step; writing ${monitor.file}\n`
        : ''),
  );
  const stop = () => void app.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
