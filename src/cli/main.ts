import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { DOMAIN_NAMES, type DomainName } from '../domains/domain.js';
import { AGENT_NAMES } from '../lab/agents/names.js';
import { DEFAULT_TASK_SET } from '../lab/production/defaults.js';
import { DETECTOR_DEFAULTS } from '../lab/monitor/loophole-detector.js';
import type { AuditCommandOptions } from './audit-command.js';
import type { EnvServeOptions } from './env-command.js';
import type { EvalCommandOptions } from './eval-command.js';
import type { StoreConfig } from '../store/open-store.js';
import { addBenchCommands } from './bench-program.js';
import type { CheckRacesOptions } from './check-races.js';
import { nonNegative, port, positive, seedOption, tau2DirHelp, tau2DirOption } from './options.js';

const VERSION = '0.1.0';

/** Turns `--store` and its companions into a store config, or explains what to set. */
function storeConfig(opts: { store: string; db: string; pgUrl?: string; pgPoolSize?: number; pgStatementTimeoutMs?: number }): StoreConfig {
  if (opts.store === 'memory') return { kind: 'memory' };
  if (opts.store === 'sqlite') return { kind: 'sqlite', path: opts.db };
  const url = opts.pgUrl ?? process.env['BATON_PG_URL'];
  if (!url) throw new InvalidArgumentError('--store postgres needs --pg-url or BATON_PG_URL (e.g. postgres://user:pass@host:5432/baton).');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new InvalidArgumentError(`--pg-url must start with postgres://, got "${url}".`);
  return {
    kind: 'postgres',
    url,
    ...(opts.pgPoolSize ? { poolSize: opts.pgPoolSize } : {}),
    ...(opts.pgStatementTimeoutMs !== undefined ? { statementTimeoutMs: opts.pgStatementTimeoutMs } : {}),
  };
}

// A reader that stops early (`baton tasks list … | head`) closes the pipe: nothing is left to say to it.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

// A flag error is one short line, the last one printed (`--help` has the rest), not the error above 45 lines of help.
const program = new Command('baton')
  .description('Customer-service AI agents that finish the job, follow the policy, and hand off to a human at the right moment.')
  .version(VERSION);

/** The store options that `serve` and `staff add` share. */
const withStoreOptions = (command: Command) =>
  command
    .addOption(new Option('--store <kind>', 'where conversations are kept').choices(['sqlite', 'memory', 'postgres']).default('sqlite'))
    .option('--db <path>', 'SQLite file (with --store sqlite)', '.baton/baton.sqlite')
    .option('--pg-url <url>', 'PostgreSQL connection string (with --store postgres; or BATON_PG_URL)')
    .option('--pg-pool-size <n>', 'PostgreSQL connections in this process (default 10)', positive)
    .option(
      '--pg-statement-timeout-ms <ms>',
      'longest a PostgreSQL statement may run before it is cancelled (default 30000; 0: no limit)',
      nonNegative,
    );

withStoreOptions(
  program
    .command('serve')
    .description('serve the runtime over HTTP: customers write, agents answer and hand off, staff sign in and take over'),
)
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--port <port>', 'port to listen on (0: any free port)', port, Number(process.env['PORT'] ?? 3000))
  .addOption(
    new Option('--domain <name>', 'the domain the agents work (over the configuration file)').choices(['billing', 'airline', 'retail']),
  )
  .addOption(
    new Option('--agent <policy>', "the default agent's policy: the offline rule agent, or the model of BATON_LLM_*")
      .choices(['rule', 'llm'])
      .default('rule'),
  )
  .option('--config <path>', 'configuration file (agents, hand-off graph, hosts); baton.config.json when it exists')
  .option('--runs <dir>', "the lab's runs folder the console lists (supervisors open their reports)", 'runs')
  .option(
    '--turn-lease-ms <ms>',
    "on PostgreSQL: how long a conversation's turn lease lasts unless renewed, i.e. how long a process that died mid-turn holds the conversation up (default 30000)",
    positive,
  )
  .action(
    async (opts: {
      runs: string;
      turnLeaseMs?: number;
      store: string;
      db: string;
      pgUrl?: string;
      host: string;
      port: number;
      domain?: 'billing' | 'airline' | 'retail';
      agent: 'rule' | 'llm';
      config?: string;
    }) => {
      const { serve } = await import('./serve.js');
      const configPath = opts.config ?? (existsSync('baton.config.json') ? 'baton.config.json' : null);
      await serve({
        store: storeConfig(opts),
        host: opts.host,
        port: opts.port,
        configPath,
        agent: opts.agent,
        runsDir: opts.runs,
        ...(opts.domain ? { domain: opts.domain } : {}),
        ...(opts.turnLeaseMs ? { turnLeaseMs: opts.turnLeaseMs } : {}),
      });
    },
  );

const staff = program.command('staff').description('staff accounts of the runtime');
withStoreOptions(
  staff
    .command('add')
    .description('make a staff account; prints a generated password once unless --password-stdin')
    .requiredOption('--email <address>', "the person's e-mail address (their sign-in)")
    .addOption(new Option('--role <role>', 'what they may do').choices(['agent', 'supervisor', 'admin']).makeOptionMandatory())
    .option('--skills <list>', 'comma-separated skills (the queues they work), e.g. billing,refunds', '')
    .option('--name <name>', 'their name as colleagues see it', '')
    .option('--password-stdin', 'read the password from standard input (at least 12 characters)'),
).action(
  async (opts: {
    store: string;
    db: string;
    pgUrl?: string;
    email: string;
    role: 'agent' | 'supervisor' | 'admin';
    skills: string;
    name: string;
    passwordStdin?: boolean;
  }) => {
    const { staffAdd } = await import('./staff-command.js');
    process.exitCode = await staffAdd({
      store: storeConfig(opts),
      email: opts.email,
      role: opts.role,
      name: opts.name,
      skills: opts.skills
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      passwordStdin: opts.passwordStdin === true,
    });
  },
);

program
  .command('decide')
  .description('run the hand-off decider on each conversation read as JSON lines on stdin (see README)')
  .option('--jsonl', 'read one conversation per line on stdin, write one decision per line on stdout')
  .action(async (opts: { jsonl?: boolean }) => {
    if (!opts.jsonl) throw new InvalidArgumentError('decide reads JSON lines: pass --jsonl and pipe conversations on stdin.');
    const { runDecide } = await import('./decide-command.js');
    await runDecide(process.stdin, process.stdout);
  });

program
  .command('packet')
  .description('build the context packet of each conversation read as JSON lines on stdin (see README)')
  .option('--jsonl', 'read one conversation per line on stdin, write one packet per line on stdout')
  .action(async (opts: { jsonl?: boolean }) => {
    if (!opts.jsonl) throw new InvalidArgumentError('packet reads JSON lines: pass --jsonl and pipe conversations on stdin.');
    const { runPacket } = await import('./packet-command.js');
    await runPacket(process.stdin, process.stdout);
  });

const domainOption = () =>
  new Option('--domain <domain>', 'the domain (billing ships with Baton; airline and retail are tau2-bench data)')
    .choices([...DOMAIN_NAMES])
    .makeOptionMandatory();
const rewardConfigOption = '--reward-config <json>';
const rewardConfigHelp = 'reward weights, e.g. \'{"r2": {"false_transfer": 1}, "dense": {"guards": {"floor": 0.2}}}\'';
const splitOption = () => new Option('--split <split>', 'which split').choices(['train', 'test', 'base']).default('base');
const versionOption = () =>
  new Option('--task-version <version>', 'task version: current or release-37199f3 for tau2-bench (default current), v1 for billing');

interface DomainCommandOptions {
  domain: DomainName;
  split: 'train' | 'test' | 'base';
  taskVersion?: string;
  tau2Dir?: string;
}

/** The domain a command names, in the task version asked for (each domain's default otherwise). */
async function domainFor(opts: DomainCommandOptions) {
  const { loadDomain, DOMAIN_VERSIONS } = await import('../domains/load-domain.js');
  const versions = DOMAIN_VERSIONS[opts.domain];
  if (opts.taskVersion !== undefined && !versions.includes(opts.taskVersion)) {
    throw new InvalidArgumentError(`--task-version: the ${opts.domain} domain has ${versions.join(', ')}; got "${opts.taskVersion}".`);
  }
  return loadDomain(opts.domain, {
    ...(opts.taskVersion ? { version: opts.taskVersion } : {}),
    ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
  });
}

const tasks = program.command('tasks').description('the tasks of a domain');
tasks
  .command('list')
  .description('list the tasks of a domain, with their split, reward basis and hand-off label')
  .addOption(domainOption())
  .addOption(splitOption())
  .addOption(versionOption())
  .option(tau2DirOption, tau2DirHelp)
  .option('--json', 'print JSON')
  .action(async (opts: DomainCommandOptions & { json?: boolean }) => {
    const domain = await domainFor(opts);
    const list = domain.tasks
      .filter((t) => opts.split === 'base' || t.split === opts.split)
      .map((t) => ({
        id: t.id,
        split: t.split,
        reward_basis: t.rewardBasis,
        needs_judge: t.needsJudge,
        actions: t.actions?.length ?? 0,
        handoff: { expected: t.handoff.expected, queue: t.handoff.queue, reason: t.handoff.reason },
      }));
    if (opts.json) {
      const tau2 = domain.source.startsWith('tau2-bench ') ? { tau2_commit: domain.source.slice('tau2-bench '.length) } : {};
      const out = { domain: domain.name, task_version: domain.version, source: domain.source, ...tau2, split: opts.split, tasks: list };
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return;
    }
    process.stdout.write(`${domain.name} (${domain.version}, ${opts.split}; ${domain.source}): ${list.length} tasks\n`);
    for (const t of list) {
      const handoff = t.handoff.expected ? `hand-off${t.handoff.queue ? ` → ${t.handoff.queue}` : ''}` : '';
      process.stdout.write(
        `  ${t.id.padStart(11)}  ${t.split.padEnd(5)}  ${t.reward_basis.join('+').padEnd(16)}  ${t.needs_judge ? 'judge ' : ''}${handoff}\n`,
      );
    }
  });

tasks
  .command('generate')
  .description('generate the hand-off variants of every domain and write their manifest (labels, splits, counts, checksum)')
  .option(tau2DirOption, tau2DirHelp)
  .option('--seed <n>', 'the generator seed (default: the committed one)', seedOption)
  .option('--out <file>', 'where to write the manifest (default: data/lab/handoff-manifest.json)')
  .action(async (opts: { tau2Dir?: string; seed?: number; out?: string }) => {
    const { tasksGenerate } = await import('./tasks-command.js');
    const summary = await tasksGenerate({ ...opts });
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  });

tasks
  .command('stats')
  .description('counts of the hand-off variants per domain: positives, hard negatives, by kind and by split')
  .addOption(new Option('--domain <domain>', 'only this domain (billing needs no tau2-bench data)').choices([...DOMAIN_NAMES]))
  .option(tau2DirOption, tau2DirHelp)
  .option('--seed <n>', 'the generator seed (default: the committed one)', seedOption)
  .option('--json', 'print JSON')
  .action(async (opts: { domain?: DomainName; tau2Dir?: string; seed?: number; json?: boolean }) => {
    const { tasksStats, tasksStatsAvailable } = await import('./tasks-command.js');
    const options = { ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}), ...(opts.seed !== undefined ? { seed: opts.seed } : {}) };
    let stats;
    if (opts.domain) stats = await tasksStats({ ...options, domains: [opts.domain] });
    else {
      // Without tau2-bench's data, billing's counts still; the others said to be left out.
      const available = await tasksStatsAvailable(options);
      stats = available.stats;
      if (available.skipped) {
        process.stderr.write(`baton: ${available.skipped.domains.join(' and ')} left out: ${available.skipped.reason}\n`);
      }
    }
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(stats)}\n`);
      return;
    }
    for (const [domain, counts] of Object.entries(stats)) {
      process.stdout.write(`${domain}: ${counts.total} variants, ${counts.positives} hand-off, ${counts.negatives} hard negatives\n`);
      for (const [kind, n] of Object.entries(counts.by_kind)) process.stdout.write(`  ${kind.padEnd(22)} ${n}\n`);
      process.stdout.write(
        `  splits: ${Object.entries(counts.by_split)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}\n`,
      );
    }
  });

tasks
  .command('show <id>')
  .description('one hand-off variant, readable: its label, the rule behind it, and the script the customer follows')
  .option(tau2DirOption, tau2DirHelp)
  .option('--seed <n>', 'the generator seed (default: the committed one)', seedOption)
  .action(async (id: string, opts: { tau2Dir?: string; seed?: number }) => {
    const { tasksShow } = await import('./tasks-command.js');
    process.stdout.write(`${await tasksShow(id, { ...opts })}\n`);
  });

tasks
  .command('from-conversation <id>')
  .description('a reviewed production conversation as a labelled hand-off task, added to the production task set')
  .option('--store <file|url>', 'the SQLite file baton serve writes, or a postgres:// URL (default BATON_PG_URL, else .baton/baton.sqlite)')
  .option('--task-set <dir>', 'the production task set to add it to', DEFAULT_TASK_SET)
  .addOption(new Option('--domain <domain>', 'the domain, when the log does not say (no tool call)').choices([...DOMAIN_NAMES]))
  .addOption(
    new Option('--split <split>', 'the split (default: a fifth dev by the id, the rest train; test only when named)').choices([
      'train',
      'dev',
      'test',
    ]),
  )
  .option('--dry-run', 'print the task, add it to no set')
  .action(
    async (
      id: string,
      opts: { store?: string; taskSet: string; domain?: DomainName; split?: 'train' | 'dev' | 'test'; dryRun?: boolean },
    ) => {
      const { runFromConversation } = await import('./from-conversation-command.js');
      process.exitCode = await runFromConversation(id, opts);
    },
  );

program
  .command('replay')
  .description("replay tasks' gold actions from the initial database: one JSON line per task (steps and final hash)")
  .addOption(domainOption())
  .addOption(splitOption())
  .addOption(versionOption())
  .option('--task <id>', 'only this task')
  .option(tau2DirOption, tau2DirHelp)
  .option('--jsonl', 'write one JSON object per task on stdout')
  .action(async (opts: DomainCommandOptions & { task?: string; jsonl?: boolean }) => {
    if (!opts.jsonl) throw new InvalidArgumentError('replay writes JSON lines: pass --jsonl.');
    const domain = await domainFor(opts);
    const selected = domain.tasks.filter(
      (t) => (opts.split === 'base' || t.split === opts.split) && (opts.task === undefined || t.id === opts.task),
    );
    if (opts.task !== undefined && selected.length === 0) {
      const where = opts.split === 'base' ? '' : ` in the ${opts.split} split`;
      throw new InvalidArgumentError(`--task: the ${domain.name} domain (${domain.version}) has no task "${opts.task}"${where}.`);
    }
    const { replayTask } = await import('../domains/replay.js');
    const { once } = await import('node:events');
    // One line per task as it is replayed, waiting whenever a slow reader fills the pipe.
    for (const task of selected) {
      if (!process.stdout.write(`${JSON.stringify(replayTask(domain, task))}\n`)) await once(process.stdout, 'drain');
    }
  });

program
  .command('eval')
  .description('put an agent in front of simulated customers and measure it (every episode through the gateway and the harness)')
  .addOption(domainOption())
  .addOption(
    new Option('--tasks <set>', 'hand-off variants, the main tasks, or the production task set (--task-set)')
      .choices(['handoff', 'main', 'production'])
      .default('handoff'),
  )
  .option('--task-set <dir>', 'with --tasks production: the production task set', DEFAULT_TASK_SET)
  .addOption(
    new Option('--split <split>', 'which split (dev is a fifth of train, for decisions)').choices(['train', 'dev', 'test']).default('dev'),
  )
  .addOption(
    new Option('--agent <agent>', "the agent (or one of the loophole audit's scripted exploits)").choices([...AGENT_NAMES]).default('rule'),
  )
  .addOption(new Option('--user <user>', 'the simulated customer').choices(['scripted', 'llm']).default('scripted'))
  .option('--styles <list>', 'all, or a comma-separated list of neutral,terse,verbose,impatient,non_native,low_tech_literacy', 'all')
  .option('--trials <n>', 'trials per task and style', positive, 1)
  .option('--concurrency <n>', 'episodes at once', positive, 4)
  .option('--workers <n>', 'threads running episodes, sharing --concurrency (for model endpoints that outpace one thread)', positive, 1)
  .option('--queue <url>', 'enqueue the episodes in this PostgreSQL database and wait while `baton worker` processes run them')
  .option('--seed <n>', 'the run seed', seedOption, 1)
  .addOption(new Option('--store <kind>', 'where conversations are kept').choices(['memory', 'sqlite', 'postgres']).default('memory'))
  .option('--pg-url <url>', 'PostgreSQL connection string (with --store postgres; or BATON_PG_URL)')
  .requiredOption('--out <dir>', 'the run folder (run.json, trajectories.jsonl, metrics.json); the same folder resumes a run')
  .option(tau2DirOption, tau2DirHelp)
  .option('--force', 'run on the test split again although this agent configuration already did')
  .option('--task <id>', "only this task's episodes (a task id, or a hand-off variant's id)")
  .option('--limit <n>', 'only the first N planned episodes', positive)
  .option('--force-resume', 'continue a run folder although its code, configuration, data or task set differ (recorded in run.json)')
  .option(
    '--allow-infra-failures <n>',
    `infrastructure-failed episodes (provider down, customer simulator failed) accepted before exit code 3`,
    nonNegative,
    0,
  )
  .option('--drift', "the domain's policy-drift pairs instead: success before and after each drift event, with intervals")
  .option('--drift-turn <n>', 'with --drift: the customer turn the drift event is scheduled at', positive, 2)
  .option('--json', 'print the metrics object on stdout')
  .action(async (opts: EvalCommandOptions) => {
    const { runEvalCommand } = await import('./eval-command.js');
    await runEvalCommand(opts);
  });

program
  .command('worker')
  .description('run the lab episodes enqueued by `baton eval --queue` (any number of workers, on any machines), until SIGINT or SIGTERM')
  .requiredOption('--queue <url>', 'the PostgreSQL database of the queue (postgres://…)')
  .option('--concurrency <n>', 'episodes at once in this process', positive, 2)
  .option('--lease-ms <ms>', "how long a silent worker's episodes stay locked before another worker runs them again", positive, 30_000)
  .option(tau2DirOption, tau2DirHelp)
  .action(async (opts: { queue: string; concurrency: number; leaseMs: number; tau2Dir?: string }) => {
    const { runWorkerCommand } = await import('./worker-command.js');
    await runWorkerCommand(opts);
  });

program
  .command('report [runDirs...]')
  .description('one self-contained HTML report of one or more runs: comparison table, plots, dialogue viewer')
  .requiredOption('--out <file>', 'the HTML file to write')
  .option('--training <dir>', "instead: a training run's curves from its monitor folder (baton env serve's monitor.jsonl)")
  .option('--baseline <name>', 'the system the others are compared with (default: the first run)')
  .option(tau2DirOption, tau2DirHelp)
  .option('--allow-mixed', 'put runs of different domains or task sets in one table (refused otherwise)')
  .option('--details', 'print every column of the tables in full (pass^k, worst style, every digit), however wide')
  .action(
    async (
      runDirs: string[],
      opts: { out: string; baseline?: string; tau2Dir?: string; allowMixed?: boolean; training?: string; details?: boolean },
    ) => {
      if (opts.training !== undefined) {
        if (runDirs.length > 0) throw new InvalidArgumentError('--training draws one training run: give no run folders with it');
        const { runTrainingReportCommand } = await import('./training-report-command.js');
        runTrainingReportCommand({ monitorDir: opts.training, out: opts.out });
        return;
      }
      if (runDirs.length === 0) throw new InvalidArgumentError('report needs run folders (or --training <monitor dir>)');
      const { runReportCommand } = await import('./report-command.js');
      await runReportCommand({
        runDirs,
        out: opts.out,
        ...(opts.allowMixed ? { allowMixed: true } : {}),
        ...(opts.details ? { details: true } : {}),
        ...(opts.baseline !== undefined ? { baseline: opts.baseline } : {}),
        ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
      });
    },
  );

const exportCommand = program.command('export').description('export lab runs as training data or as a dataset');

exportCommand
  .command('sft <runDirs...>')
  .description("the runs' dialogues as SFT data (TRL / Hugging Face chat format with tools): one {messages, tools, metadata} per line")
  .requiredOption('--out <file>', 'the JSON Lines file to write')
  .option('--filter <list>', 'keep only dialogues passing all of: success, no-violation, correct-handoff (comma-separated)')
  .option(tau2DirOption, tau2DirHelp)
  .addHelpText(
    'after',
    `
Tool-call arguments are JSON objects, not strings (what chat templates render); load the file with
datasets >= 4.8. The system prompt and tool results are as the harness showed them to the agent.
Calls that did not run (refused by the harness, failed by an injected outage, cut by a hand-off)
stay in with the result the agent saw; a write refused for want of the customer's yes or of
verification is a policy violation, so --filter no-violation drops those dialogues. The
customer's final words, never answered, are left out.`,
  )
  .action(async (runDirs: string[], opts: { out: string; filter?: string; tau2Dir?: string }) => {
    const { runExportSftCommand } = await import('./export-command.js');
    await runExportSftCommand({
      runDirs,
      out: opts.out,
      ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
      ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
    });
  });

exportCommand
  .command('dataset <runDirs...>')
  .description('the runs as a Hugging Face dataset folder: configs episodes, tasks and runs (JSON Lines per split) and a dataset card')
  .requiredOption('--out <dir>', 'the folder to write (new or empty)')
  .option(tau2DirOption, tau2DirHelp)
  .addHelpText(
    'after',
    `
Load it with datasets.load_dataset(DIR, name="episodes") (or "tasks", "runs"). README.md is the
card: what the data is, the commands, commits, versions and seeds that made it, every field of
every file, the licences (tau2-bench's MIT notice for airline and retail) and the limits. Every
string is checked with the runtime's redaction detectors first: a secret found is named (file,
line, field; never its value) and nothing is written. Runs of different domains, task sets or
agents can go together (each episode names its run); a run whose domain data or variants differ
from this Baton's is refused, as its tasks could not be described as it ran them.`,
  )
  .action(async (runDirs: string[], opts: { out: string; tau2Dir?: string }) => {
    const { runExportDatasetCommand } = await import('./export-command.js');
    await runExportDatasetCommand({ runDirs, out: opts.out, ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}) });
  });

program
  .command('lab')
  .description('the default run: billing hand-off variants (dev), the reference agents, scripted customers in six styles, then the report')
  .option('--out <dir>', 'where the runs go', 'runs/default')
  .option('--trials <n>', 'trials per task and style', positive, 2)
  .option('--concurrency <n>', 'episodes at once', positive, 4)
  .action(async (opts: { out: string; trials: number; concurrency: number }) => {
    const { runDefault } = await import('./default-run.js');
    const { runDirs, infrastructureFailed } = await runDefault(opts);
    const { runReportCommand } = await import('./report-command.js');
    process.stdout.write('\n');
    await runReportCommand({ runDirs, baseline: 'rule', out: join(opts.out, 'report.html') });
    if (infrastructureFailed > 0) {
      const { EXIT_INFRASTRUCTURE } = await import('./eval-command.js');
      process.stderr.write(
        `baton: ${infrastructureFailed} episodes failed for infrastructure reasons (see above): exit ${EXIT_INFRASTRUCTURE}.\n`,
      );
      process.exitCode = EXIT_INFRASTRUCTURE;
    }
  });

program
  .command('audit')
  .description('the loophole audit: the honest rule agent and scripted exploits through every reward; which rewards an exploit games')
  .addOption(domainOption())
  .addOption(new Option('--tasks <set>', 'the main tasks, or hand-off variants').choices(['main', 'handoff']).default('main'))
  .addOption(new Option('--split <split>', 'train or dev (never test)').choices(['train', 'dev']).default('train'))
  .option('--rewards <list>', 'comma-separated: task, r2, dense', 'task,r2,dense')
  .option(rewardConfigOption, rewardConfigHelp)
  .option('--styles <list>', 'customer styles (all, or a list)', 'neutral')
  .option('--trials <n>', 'trials per task and style', positive, 1)
  .option('--concurrency <n>', 'episodes at once', positive, 4)
  .option('--seed <n>', 'the run seed', seedOption, 1)
  .option('--out <dir>', "where the policies' runs go (default runs/audit/<domain>-<tasks>-<split>); an audit there again reuses them")
  .option('--random <n>', 'random policies in the generic search, besides the degenerate ones', nonNegative, 8)
  .option('--no-search', 'skip the generic search (degenerate and random policies)')
  .option(tau2DirOption, tau2DirHelp)
  .option('--json', 'print the result as JSON')
  .addHelpText(
    'after',
    `
The dense reward's rubric terms use a judge when BATON_JUDGE_BASE_URL and BATON_JUDGE_MODEL are set
(BATON_JUDGE_API_KEY if it needs one); without one they are neutral and say judge: "absent".`,
  )
  .action(async (opts: AuditCommandOptions) => {
    const { runAuditCommand } = await import('./audit-command.js');
    await runAuditCommand(opts);
  });

program
  .command('env')
  .description('environments for RL trainers')
  .command('serve')
  .description(
    "an OpenEnv-compatible environment server over a domain's tasks: WebSocket /ws, MCP at /mcp, HTTP /reset /step /state /health /schema /metadata /openapi.json",
  )
  .addOption(domainOption())
  .addOption(new Option('--tasks <set>', 'the main tasks, or hand-off variants').choices(['main', 'handoff']).default('main'))
  .addOption(new Option('--split <split>', 'which split').choices(['train', 'dev', 'test']).default('train'))
  .addOption(new Option('--reward <name>', 'the reward of every episode').choices(['task', 'r2', 'dense']).default('r2'))
  .addOption(new Option('--user <user>', 'the simulated customer').choices(['scripted', 'llm']).default('scripted'))
  .option('--styles <list>', 'customer styles (all, or a list)', 'neutral')
  .addOption(
    new Option('--checks <mode>', "production's confirmation and output checks, or off (to replay reference solutions)")
      .choices(['production', 'off'])
      .default('production'),
  )
  .option('--host <host>', 'the address to listen on', '127.0.0.1')
  .option('--port <n>', 'the port (0: any free one)', (v) => Number.parseInt(v, 10), 8000)
  .option('--max-sessions <n>', 'WebSocket sessions at once', positive, 8)
  .option('--idle-timeout-s <n>', 'close a session idle this long', positive, 600)
  .option('--max-frame-kib <n>', 'the largest WebSocket frame and HTTP body accepted (KiB)', positive, 1024)
  .addOption(
    new Option('--mode <mode>', 'one agent, or a team (the trainer plays one role; docs/hierarchy.md)')
      .choices(['single', 'hierarchy'])
      .default('single'),
  )
  .addOption(new Option('--role <role>', 'in hierarchy mode: the role the trainer plays').choices(['l1', 'l2', 'l3']).default('l1'))
  .addOption(
    new Option('--supervisor <name>', 'in hierarchy mode: the scripted L2 supervisor (with --role l2 the trainer is the supervisor)')
      .choices(['honest', 'rubber-stamp', 'escalate-all', 'take-over'])
      .default('honest'),
  )
  .addOption(
    new Option('--l1 <agent>', 'in hierarchy mode with --role l2 or l3: the scripted L1 agent').choices(['rule', 'oracle']).default('rule'),
  )
  .addOption(
    new Option('--curriculum <stage>', 'in hierarchy mode: the curriculum stage (tasks, reward density, guard severity)')
      .choices(['stage1', 'stage2', 'stage3', 'stage4'])
      .default('stage4'),
  )
  .option(rewardConfigOption, rewardConfigHelp)
  .option(tau2DirOption, tau2DirHelp)
  .option('--no-monitor', 'no training monitor (no /monitor, /metrics, nor its file)')
  .option('--monitor-dir <dir>', "the training monitor's folder (default runs/monitor/<domain>-<tasks>-<split>-<UTC time>)")
  .option('--monitor-window <n>', 'episodes per training step until the trainer declares its steps (POST /monitor/step)', positive, 64)
  .option('--monitor-z <z>', "the z the loophole detector's change-point test must reach (one-sided)", Number, DETECTOR_DEFAULTS.z)
  .option(
    '--monitor-min-rise <share>',
    'the smallest climb since the change that counts, as a share (0.04: four points)',
    Number,
    DETECTOR_DEFAULTS.minRise,
  )
  .option(
    '--monitor-climb-steps <n>',
    'the longest climb tested: candidate change steps are among the last N steps',
    Number,
    DETECTOR_DEFAULTS.maxClimbSteps,
  )
  .option(
    '--monitor-history-steps <n>',
    'the steps the change test sees: baseline, climb and noise (default 50, or more for a longer climb)',
    Number,
  )
  .addHelpText(
    'after',
    `
The training monitor (docs/training-monitor.md) groups finished episodes into steps, serves their
figures at GET /monitor (JSON) and GET /metrics (Prometheus), writes them to monitor.jsonl in its
folder, and alerts when hand-offs or over-escalation climb while success does not. Draw the
curves with: baton report --training <monitor dir> --out training.html`,
  )
  .action(async (opts: EnvServeOptions) => {
    const { runEnvServe } = await import('./env-command.js');
    await runEnvServe(opts);
  });

addBenchCommands(program);

program
  .command('sim')
  .description('simulators (JSON on stdout)')
  .command('queue')
  .description('the router on a virtual clock: capacity, idle slots, promises, wait estimates and an Erlang-C check')
  .option('--json', 'print the JSON on one line')
  .option('--seed <n>', 'random seed', nonNegative, 1)
  .option('--load <l>', 'offered load while staffed, in (0, 1)', '0.8')
  .option('--conversations <n>', 'conversations in the mixed segment (shifts, DST, holiday, bursts, declines)', positive, 10_000)
  .option(
    '--stationary-conversations <n>',
    'conversations in the stationary M/M/c segment checked against Erlang C (at least)',
    positive,
    200_000,
  )
  .option('--stationary-precision <share>', 'run the stationary segment on until its mean wait is known within ± this share (95%)', '0.07')
  .option('--stationary-max-conversations <n>', 'at most this many stationary conversations', positive, 1_000_000)
  .option('--servers <n>', 'servers in the stationary segment', positive, 4)
  .action(
    async (opts: {
      json?: boolean;
      seed: number;
      load: string;
      conversations: number;
      stationaryConversations: number;
      stationaryPrecision: string;
      stationaryMaxConversations: number;
      servers: number;
    }) => {
      const { runSimQueue } = await import('./sim-queue.js');
      await runSimQueue({ ...opts, load: Number(opts.load), stationaryPrecision: Number(opts.stationaryPrecision) });
    },
  );

program
  .command('check')
  .description('long-running correctness checks')
  .command('races')
  .description('randomised multi-process race schedules with kills on one store; prints the invariant counters (exit 1 if any is not 0)')
  .option('--store <kind>', 'postgres (a throwaway server on loopback unless --pg-url) or sqlite (a temporary file)', 'postgres')
  .option('--pg-url <url>', 'an existing PostgreSQL server to make the database on')
  .option('--schedules <n>', 'randomised schedules, one conversation each', positive, 1000)
  .option('--processes <n>', 'OS processes racing', positive, 4)
  .option('--batch <n>', 'schedules in flight together, audited after each batch', positive, 100)
  .option('--kills-per-batch <n>', 'processes killed (SIGKILL) and restarted per batch', nonNegative, 1)
  .option('--seed <n>', 'seed of the schedules', positive, 1)
  .option('--json', 'print only the JSON result on stdout')
  .action(async (opts: Omit<CheckRacesOptions, 'store' | 'progress'> & { store: string; json?: boolean }) => {
    if (opts.store !== 'postgres' && opts.store !== 'sqlite')
      throw new InvalidArgumentError(`--store is postgres or sqlite, not "${opts.store}"`);
    const { checkRaces } = await import('./check-races.js');
    const result = await checkRaces({
      ...opts,
      store: opts.store,
      progress: (line) => process.stderr.write(`baton check races: ${line}\n`),
    });
    process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    if (!result.ok) process.exitCode = 1;
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`baton: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`baton: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
