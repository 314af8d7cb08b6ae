/**
 * `baton eval`: an agent in front of simulated customers, every episode a real conversation
 * through the gateway and the harness. Episodes run concurrently; each finished one is appended to
 * `trajectories.jsonl` at once, so a run that is interrupted and started again with the same
 * output folder continues where it stopped; when the run is over the file is rewritten in plan
 * order, so that a run's folder is the same bytes however its episodes were scheduled (threads,
 * concurrency, or worker processes on the job queue with `queue`). What only says how and where it
 * ran (start time, Node version, concurrency, episode wall times) goes to `environment.json` and
 * `timings.jsonl`. A run on the test split is entered in a ledger, and the same agent
 * configuration is refused a second test run unless forced.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DomainName, Domain, DomainTask } from '../../domains/domain.js';
import { loadDomain } from '../../domains/load-domain.js';
import type { StoreConfig } from '../../store/open-store.js';
import type { AgentName } from '../agents/index.js';
import { createEpisodeRunner } from './episode-runner.js';
import { codeChecksum, domainChecksum, gitSha, packageVersion, runDifferences, taskSetChecksum, type RunIdentity } from './run-identity.js';
import { infrastructureFailures } from '../metrics/infrastructure.js';
import { recordKey, type EpisodeRecord } from '../records.js';
import type { Style } from '../user.js';
import { generateVariants, HANDOFF_VARIANT_SEED, sourceSplits, variantsChecksum } from '../variants/index.js';
import type { HandoffVariant, VariantSplit } from '../variant.js';
import type { QueueDatabase } from './queue-database.js';
import { productionVariant, type ProductionTask } from '../production/production-task.js';
import { withProductionTasks, writeRunTasks } from '../production/run-tasks.js';
import { readTaskSet, taskSetChecksum as productionChecksum, TaskSetError } from '../production/task-set.js';
import { parseEpisodeRecord, parseRunFile, RecordFormatError } from '../record-schema.js';

export interface ModelEndpoint {
  baseURL: string;
  model: string;
  apiKey?: string;
}

export interface EvalConfig {
  domain: DomainName;
  /** Hand-off variants, the main tasks, or the production task set at `taskSet` (docs/production-tasks.md). */
  tasks: 'handoff' | 'main' | 'production';
  /** With `tasks: 'production'`: the task set's folder. */
  taskSet?: string;
  split: VariantSplit;
  agent: AgentName;
  user: 'scripted' | 'llm';
  styles: readonly Style[];
  trials: number;
  concurrency: number;
  /**
   * Threads running episodes (default 1: this thread). With more, the `concurrency` episodes in
   * flight are shared among them, and so is each endpoint's limit; records, the trajectories file
   * and progress stay with this thread.
   */
  workers?: number;
  /**
   * A PostgreSQL URL: the episodes are enqueued there as jobs and run by `baton worker`
   * processes (on any machines); this process waits for their records (docs/lab.md).
   */
  queue?: string;
  seed: number;
  store: StoreConfig;
  out: string;
  force: boolean;
  /** Continue a folder whose run differs (configuration, code, domain data, task set); `run.json` records it. */
  forceResume?: boolean;
  /**
   * Remove a folder whose run differs and start afresh (`baton lab`, whose folders hold the
   * default run of whatever code is checked out), instead of refusing it.
   */
  replaceDifferentRun?: boolean;
  /** Only the episodes of this task: a task id, or a hand-off variant's id. */
  task?: string;
  /** Only the first `limit` planned episodes. */
  limit?: number;
  tau2Dir?: string;
  /** The `llm` agent's endpoint (`BATON_LLM_BASE_URL`, `BATON_LLM_MODEL`, `BATON_LLM_API_KEY`). */
  agentModel?: ModelEndpoint;
  /** The LLM customer's endpoint (`BATON_USER_BASE_URL`, … or the agent's). */
  userModel?: ModelEndpoint;
}

/** A configuration that cannot run, said before anything runs. */
export class EvalConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EvalConfigError';
  }
}

export interface EvalProgress {
  start(total: number, done: number): void;
  episode(record: EpisodeRecord, done: number, total: number): void;
  stop(): void;
}

/** How long an episode took and where it ran: run-environment, kept in `timings.jsonl`, never in a record. */
export interface EpisodeTiming {
  wall_ms: number;
  /** The worker process (host/pid) that ran it, on the job queue. */
  worker?: string;
  /** The job's attempt that recorded it, on the job queue (above 1: a worker died running it before). */
  attempt?: number;
}

/** A record as the runner returns it, split into the record kept and its timing. */
function splitTiming(record: EpisodeRecord): [EpisodeRecord, EpisodeTiming] {
  const { wall_ms: wallMs, ...rest } = record;
  return [rest, { wall_ms: wallMs ?? 0 }];
}

/** One episode to run: a task (or variant), a style, a trial. */
export interface Planned {
  key: string;
  task: DomainTask;
  variant: HandoffVariant | null;
  split: VariantSplit;
  style: Style;
  trial: number;
  seed: number;
}

/** A stable 31-bit seed per episode from the run's seed and the episode's key. */
function episodeSeed(seed: number, key: string): number {
  return createHash('sha256').update(`${seed}:${key}`).digest().readUInt32BE(0) >>> 1;
}

/** What the episodes of a run are, in a fixed order. */
export function planEpisodes(
  domain: Domain,
  variants: readonly HandoffVariant[],
  config: Pick<EvalConfig, 'tasks' | 'split' | 'styles' | 'trials' | 'seed' | 'task' | 'limit'>,
): Planned[] {
  const splits = sourceSplits(domain, HANDOFF_VARIANT_SEED);
  // A production task is a variant of its own synthetic source task, which the domain then carries.
  const items: { task: DomainTask; variant: HandoffVariant | null }[] =
    config.tasks === 'handoff' || config.tasks === 'production'
      ? variants
          .filter((v) => v.domain === domain.name && v.split === config.split)
          .map((variant) => {
            const task = domain.tasks.find((t) => t.id === variant.source);
            if (!task) throw new Error(`variant ${variant.id}: no source task ${variant.source}`);
            return { task, variant };
          })
      : domain.tasks.filter((t) => splits.get(t.id) === config.split).map((task) => ({ task, variant: null }));
  const chosen = config.task === undefined ? items : items.filter((i) => i.task.id === config.task || i.variant?.id === config.task);
  const planned: Planned[] = [];
  for (const { task, variant } of chosen) {
    for (const style of config.styles) {
      for (let trial = 0; trial < config.trials; trial++) {
        const key = recordKey(domain.name, task.id, variant, style, trial);
        planned.push({ key, task, variant, split: config.split, style, trial, seed: episodeSeed(config.seed, key) });
      }
    }
  }
  return config.limit === undefined ? planned : planned.slice(0, config.limit);
}

/** The configuration as run.json states it (and a resumed run must match). */
function describe(config: EvalConfig, domain: Domain, variantsChecksum: string | null, productionChecksum: string | null = null) {
  return {
    domain: config.domain,
    task_version: domain.version,
    source: domain.source,
    tasks: config.tasks,
    split: config.split,
    agent: config.agent,
    agent_model: config.agent === 'llm' ? (config.agentModel?.model ?? null) : null,
    user: config.user,
    user_model: config.user === 'llm' ? (config.userModel?.model ?? null) : null,
    styles: [...config.styles],
    trials: config.trials,
    seed: config.seed,
    variant_seed: HANDOFF_VARIANT_SEED,
    variants_checksum: variantsChecksum,
    // The production tasks of this domain that the run ran, by their checksum (the set's own convention).
    ...(productionChecksum !== null ? { production_tasks_checksum: productionChecksum } : {}),
    // Only when narrowed, so that the configuration of a whole run reads as it always has.
    ...(config.task !== undefined ? { task: config.task } : {}),
    ...(config.limit !== undefined ? { limit: config.limit } : {}),
  };
}

/** The identity of an agent configuration for the test ledger: who is being measured, on what. */
const ledgerIdentity = (run: ReturnType<typeof describe>) =>
  JSON.stringify({ domain: run.domain, tasks: run.tasks, agent: run.agent, agent_model: run.agent_model, task_version: run.task_version });

function readLines(path: string): EpisodeRecord[] {
  if (!existsSync(path)) return [];
  const records: EpisodeRecord[] = [];
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        // A line cut short when the run was killed: that episode runs again.
        return;
      }
      // A whole record of another version or shape is not silently run again: it is refused, saying why.
      records.push(parseEpisodeRecord(value, `${path}:${i + 1}`));
    });
  return records;
}

/** Checks what can be checked before anything runs. */
export function validateEvalConfig(config: EvalConfig): void {
  if (config.agent === 'llm' && !config.agentModel) {
    throw new EvalConfigError(
      '--agent llm needs a model endpoint: set BATON_LLM_BASE_URL (e.g. http://localhost:8000/v1) and BATON_LLM_MODEL.',
    );
  }
  if (config.user === 'llm' && !config.userModel) {
    throw new EvalConfigError(
      '--user llm needs a model endpoint: set BATON_USER_BASE_URL and BATON_USER_MODEL (or BATON_LLM_BASE_URL and BATON_LLM_MODEL).',
    );
  }
  if (config.styles.length === 0) throw new EvalConfigError('--styles: name at least one style.');
  if (config.queue !== undefined && config.store.kind !== 'memory') {
    throw new EvalConfigError(
      "--queue runs every episode on a worker's own in-memory store: --store sqlite or postgres cannot be used with it.",
    );
  }
  if (config.tasks === 'production' && (config.queue !== undefined || (config.workers ?? 1) > 1)) {
    throw new EvalConfigError('--tasks production runs in this process: leave out --queue and --workers.');
  }
  if (config.tasks === 'production' && config.taskSet === undefined) {
    throw new EvalConfigError('--tasks production needs the task set: --task-set DIR.');
  }
  if (config.queue !== undefined && (config.workers ?? 1) > 1) {
    throw new EvalConfigError('--queue and --workers: the workers are `baton worker` processes; leave out --workers.');
  }
}

export interface EvalResult {
  runDir: string;
  /** The domain the run was on (loaded once; metrics need its tools, gold actions and policy). */
  domain: Domain;
  run: Record<string, unknown>;
  records: EpisodeRecord[];
  ran: number;
  resumed: number;
  /** How the run the folder held differed, when `replaceDifferentRun` removed it; else null. */
  replaced: string[] | null;
}

/** Runs (or resumes) an evaluation and returns every record of the run. */
export async function runEval(config: EvalConfig, progress?: EvalProgress): Promise<EvalResult> {
  validateEvalConfig(config);
  const base = await loadDomain(config.domain, config.tau2Dir ? { tau2Dir: config.tau2Dir } : {});
  const production = config.tasks === 'production' ? productionTasksFor(config, base) : null;
  const domain = production ? withProductionTasks(base, production) : base;
  const variants = production ? production.map(productionVariant) : generateVariants([domain], { seed: HANDOFF_VARIANT_SEED });
  // The manifest's own checksum: a run names the variant set as `baton tasks generate` does.
  const runConfig = production
    ? describe(config, domain, null, productionChecksum(production))
    : describe(config, domain, variantsChecksum(variants));
  const plan = planEpisodes(domain, variants, config);
  if (production && plan.length === 0 && config.task === undefined) {
    const splits = [...new Set(production.map((t) => t.split))].sort().join(', ');
    throw new EvalConfigError(
      `the task set ${config.taskSet} has no ${config.domain} tasks in the ${config.split} split (its splits: ${splits}; --split).`,
    );
  }
  if (plan.length === 0 && config.task !== undefined) {
    const what = `no task or variant "${config.task}"`;
    throw new EvalConfigError(
      `the ${config.domain} ${config.tasks} tasks of the ${config.split} split have ${what} to run (--task, --split, --tasks).`,
    );
  }
  const identity: RunIdentity = {
    config: runConfig,
    git_sha: gitSha(),
    code_checksum: codeChecksum(),
    // The domain's own data: production tasks are named by their checksum in the configuration.
    domain_checksum: domainChecksum(base),
    task_set_checksum: taskSetChecksum(plan.map((p) => p.key)),
    planned_episodes: plan.length,
  };
  // Opened before the folder is touched: a queue that cannot be used changes nothing.
  const queueDb =
    config.queue === undefined ? null : await (await import('./queue-database.js')).openQueueDatabase(config.queue, { poolSize: 3 });
  try {
    return await runPlanned(config, progress, { domain, variants, runConfig, plan, identity, queueDb, production });
  } finally {
    await queueDb?.close();
  }
}

async function runPlanned(
  config: EvalConfig,
  progress: EvalProgress | undefined,
  planned: {
    domain: Domain;
    variants: HandoffVariant[];
    runConfig: ReturnType<typeof describe>;
    plan: Planned[];
    identity: RunIdentity;
    queueDb: QueueDatabase | null;
    production: ProductionTask[] | null;
  },
): Promise<EvalResult> {
  const { domain, variants, runConfig, plan, identity, queueDb, production } = planned;
  const runDir = resolve(config.out);
  const runFile = join(runDir, 'run.json');
  // A folder holds one run: resuming needs the same configuration, code, data and task set.
  let previousRun: Record<string, unknown> | null = null;
  let unreadable: string | null = null;
  if (existsSync(runFile)) {
    try {
      const text = readFileSync(runFile, 'utf8');
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new RecordFormatError(`${runFile}: not JSON (${(error as Error).message}).`, { cause: error });
      }
      previousRun = parseRunFile(value, runFile);
    } catch (error) {
      if (!(error instanceof RecordFormatError)) throw error;
      // A run.json of another version or shape is no run to continue: baton lab starts afresh, eval refuses.
      unreadable = (error as Error).message;
      if (config.replaceDifferentRun !== true) {
        throw new EvalConfigError(`${unreadable} Use another --out, or remove the folder to start again.`);
      }
    }
  }
  let differences = unreadable ? [unreadable] : previousRun ? runDifferences(previousRun, identity) : [];
  const replaced = config.replaceDifferentRun === true && differences.length > 0 ? differences : null;
  if (replaced) {
    // The folder's run is of something else: it goes, and this run starts in its place.
    rmSync(runDir, { recursive: true, force: true });
    previousRun = null;
    differences = [];
  }
  if (differences.length > 0 && config.forceResume !== true) {
    throw new EvalConfigError(
      `${runDir} holds another run; continuing it would mix results:\n  ${differences.join('\n  ')}\nUse another --out, remove the folder to start again, or --force-resume (recorded in run.json).`,
    );
  }
  mkdirSync(runDir, { recursive: true });
  const ledgerFile = resolve('.baton', 'test-ledger.jsonl');
  if (config.split === 'test' && !config.force && !existsSync(runFile)) {
    const identity = ledgerIdentity(runConfig);
    const earlier = existsSync(ledgerFile)
      ? readFileSync(ledgerFile, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as { identity: string; out: string; at: string })
          .find((e) => e.identity === identity)
      : undefined;
    if (earlier) {
      throw new EvalConfigError(
        `this agent configuration already ran on the test split (${earlier.out}, ${earlier.at}); test numbers are not tuned on. Use --split dev, or --force to run it again.`,
      );
    }
  }

  const run: Record<string, unknown> = {
    version: 1,
    ...identity,
    package_version: packageVersion(),
    store: config.store.kind,
  };
  // The tasks themselves, for the report and exports: the run's checksum names exactly these.
  if (production && !previousRun) writeRunTasks(runDir, production);
  if (!previousRun) writeFileSync(runFile, `${JSON.stringify(run, null, 2)}\n`);
  else if (differences.length > 0) {
    // Forced: the folder keeps its first identity, and says when and over what it was continued.
    const forced = Array.isArray(previousRun['forced_resumes']) ? (previousRun['forced_resumes'] as unknown[]) : [];
    const entry = { at: new Date().toISOString(), git_sha: identity.git_sha, differences };
    writeFileSync(runFile, `${JSON.stringify({ ...previousRun, forced_resumes: [...forced, entry] }, null, 2)}\n`);
  }

  const environment = runEnvironment(join(runDir, 'environment.json'), config);
  const trajectoriesFile = join(runDir, 'trajectories.jsonl');
  // An episode the infrastructure failed measured nothing: a resumed run runs it again.
  const read = readLines(trajectoriesFile);
  const readFailures = infrastructureFailures(read);
  const existing = read.filter((_, i) => readFailures[i] === null);
  const done = new Set(existing.map((r) => r.key));
  // Rewrite without a torn last line (nor the failed episodes), so appends start on a line of their own.
  writeFileSync(trajectoriesFile, existing.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const todo = plan.filter((p) => !done.has(p.key));
  const order = new Map(plan.map((p, i) => [p.key, i]));
  const records: EpisodeRecord[] = existing.filter((r) => order.has(r.key)).map((r) => splitTiming(r)[0]);
  const timingsFile = join(runDir, 'timings.jsonl');
  const timings = readTimings(timingsFile);
  progress?.start(plan.length, plan.length - todo.length);

  let finished = plan.length - todo.length;
  // Open once for the run: each record is one write(2) of a whole line, on disk before the next starts.
  const out = openSync(trajectoriesFile, 'a');
  const finish = (record: EpisodeRecord, timing: EpisodeTiming) => {
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    for (let at = 0; at < line.length;) at += writeSync(out, line, at);
    records.push(record);
    timings.set(record.key, timing);
    finished += 1;
    progress?.episode(record, finished, plan.length);
  };
  const finishTimed = (record: EpisodeRecord) => finish(...splitTiming(record));
  try {
    const workers = Math.max(1, Math.min(config.workers ?? 1, todo.length));
    if (queueDb) {
      const { runOnQueue } = await import('./queue-run.js');
      const { queueRunSpec } = await import('./queue-database.js');
      await runOnQueue({
        db: queueDb,
        runId: environment.queue_run_id ?? '',
        spec: queueRunSpec(config, identity),
        todo,
        rerun: read.filter((_, i) => readFailures[i] !== null).map((r) => r.key),
        finish,
      });
    } else if (workers > 1) {
      const { runInWorkers } = await import('./episode-workers.js');
      await runInWorkers(config, todo, workers, finishTimed);
    } else {
      const runner = await createEpisodeRunner(config, domain, variants);
      try {
        let next = 0;
        const loop = async () => {
          while (next < todo.length) {
            finishTimed(await runner.run(todo[next++] as Planned));
            // Scripted episodes never wait on I/O: without a turn of the event loop between them,
            // a Ctrl-C (and the progress bar's redraw) would wait for the whole run.
            await nextTurn();
          }
        };
        await Promise.all(Array.from({ length: Math.max(1, Math.min(config.concurrency, todo.length)) }, loop));
      } finally {
        await runner.close();
      }
    }
  } finally {
    closeSync(out);
    progress?.stop();
  }
  if (config.split === 'test' && !existsSync(join(runDir, '.ledgered'))) {
    mkdirSync(resolve('.baton'), { recursive: true });
    appendFileSync(ledgerFile, `${JSON.stringify({ identity: ledgerIdentity(runConfig), out: runDir, at: new Date().toISOString() })}\n`);
    writeFileSync(join(runDir, '.ledgered'), '');
  }
  // Records in plan order, whatever order the workers finished in: the folder is the same bytes however it was run.
  records.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
  const failures = infrastructureFailures(records);
  records.forEach((r, i) => {
    const failure = failures[i];
    if (failure) r.infrastructure_failure = failure;
  });
  writeAtomically(trajectoriesFile, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeAtomically(
    timingsFile,
    records
      .filter((r) => timings.has(r.key))
      .map((r) => `${JSON.stringify({ key: r.key, ...timings.get(r.key) })}\n`)
      .join(''),
  );
  return { runDir, domain, run, records, ran: todo.length, resumed: plan.length - todo.length, replaced };
}

/** The production tasks of the configured domain in the task set (refused with a clear error when there are none). */
function productionTasksFor(config: EvalConfig, domain: Domain): ProductionTask[] {
  let set;
  try {
    set = readTaskSet(config.taskSet ?? '');
  } catch (error) {
    if (error instanceof TaskSetError) throw new EvalConfigError(error.message);
    throw error;
  }
  const mine = set.tasks.filter((t) => t.domain === domain.name);
  if (mine.length === 0) {
    const others = [...new Set(set.tasks.map((t) => t.domain))];
    throw new EvalConfigError(
      `the task set ${config.taskSet} has no ${domain.name} tasks${others.length > 0 ? ` (it has ${others.join(', ')} tasks: --domain)` : ' (add some with baton tasks from-conversation)'}.`,
    );
  }
  return mine;
}

/** Replaces `file` whole: a run killed while it is written leaves the old file, never half of the new. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** What `environment.json` holds: how and where the run ran, not what it measured (left out of any comparison of runs). */
interface RunEnvironment {
  started_at: string;
  node: string;
  concurrency: number;
  /** The run's id on the job queue (`queue`): the same folder continued finds its jobs and records. */
  queue_run_id?: string;
}

/** Reads the folder's environment, or writes it for a new run (a first run on the queue gets its id). */
function runEnvironment(file: string, config: EvalConfig): RunEnvironment {
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as RunEnvironment) : null;
  const environment: RunEnvironment = previous
    ? { ...previous }
    : { started_at: new Date().toISOString(), node: process.version, concurrency: config.concurrency };
  if (config.queue !== undefined && environment.queue_run_id === undefined) {
    environment.queue_run_id = `run_${randomBytes(16).toString('base64url')}`;
  }
  if (previous === null || previous.queue_run_id !== environment.queue_run_id) {
    writeAtomically(file, `${JSON.stringify(environment, null, 2)}\n`);
  }
  return environment;
}

function readTimings(file: string): Map<string, EpisodeTiming> {
  const timings = new Map<string, EpisodeTiming>();
  if (!existsSync(file)) return timings;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const { key, ...timing } = JSON.parse(line) as EpisodeTiming & { key: string };
      timings.set(key, timing);
    } catch {
      // A line cut short: that episode's timing is lost, not its record.
    }
  }
  return timings;
}

export { createEpisodeRunner, createUserFactory, type EpisodeRunner } from './episode-runner.js';
