import { Command, InvalidArgumentError, Option } from 'commander';
import { z } from 'zod';
import { AgentIdSchema } from '../core/index.js';
import type { StoreConfig } from '../store/open-store.js';
import { serve } from './serve.js';

const VERSION = '0.1.0';

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535.');
  return n;
};
const positive = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer.');
  return n;
};

/** Turns `--store` and its companions into a store config, or explains what to set. */
function storeConfig(opts: { store: string; db: string; pgUrl?: string }): StoreConfig {
  if (opts.store === 'memory') return { kind: 'memory' };
  if (opts.store === 'sqlite') return { kind: 'sqlite', path: opts.db };
  const url = opts.pgUrl ?? process.env['BATON_PG_URL'];
  if (!url) throw new InvalidArgumentError('--store postgres needs --pg-url or BATON_PG_URL (e.g. postgres://user:pass@host:5432/baton).');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new InvalidArgumentError(`--pg-url must start with postgres://, got "${url}".`);
  return { kind: 'postgres', url };
}

const program = new Command('baton')
  .description('Customer-service AI agents that finish the job, follow the policy, and hand off to a human at the right moment.')
  .version(VERSION)
  .showHelpAfterError();

program
  .command('serve')
  .description('serve the conversation gateway over HTTP')
  .addOption(new Option('--store <kind>', 'where conversations are kept').choices(['sqlite', 'memory', 'postgres']).default('sqlite'))
  .option('--db <path>', 'SQLite file (with --store sqlite)', '.baton/baton.sqlite')
  .option('--pg-url <url>', 'PostgreSQL connection string (with --store postgres; or BATON_PG_URL)')
  .option('--host <host>', 'address to listen on', '127.0.0.1')
  .option('--port <port>', 'port to listen on (0: any free port)', port, Number(process.env['PORT'] ?? 3000))
  .option('--agent <id>', 'agent that serves new conversations', 'agent_support')
  .action(async (opts: { store: string; db: string; pgUrl?: string; host: string; port: number; agent: string }) => {
    const agent = AgentIdSchema.safeParse(opts.agent);
    if (!agent.success) throw new InvalidArgumentError(`--agent: ${z.prettifyError(agent.error)}`);
    await serve({ store: storeConfig(opts), host: opts.host, port: opts.port, agent: agent.data });
  });

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

const tasks = program.command('tasks').description('the tasks of a domain');
tasks
  .command('list')
  .description('list the tasks of a domain, with their split and reward basis')
  .addOption(new Option('--domain <domain>', 'the domain').choices(['airline', 'retail']).makeOptionMandatory())
  .addOption(new Option('--split <split>', 'which split').choices(['train', 'test', 'base']).default('base'))
  .addOption(new Option('--task-version <version>', 'tau2 task version').choices(['current', 'release-37199f3']).default('current'))
  .option('--tau2-dir <dir>', 'folder with tau2-bench data (else BATON_TAU2_DIR, else the download cache)')
  .option('--json', 'print JSON')
  .action(
    async (opts: {
      domain: 'airline' | 'retail';
      split: 'train' | 'test' | 'base';
      taskVersion: 'current' | 'release-37199f3';
      tau2Dir?: string;
      json?: boolean;
    }) => {
      const { resolveTau2Data } = await import('../domains/tau2/tau2-data.js');
      const { loadTau2Tasks } = await import('../domains/tau2/tau2-tasks.js');
      const data = await resolveTau2Data(opts.tau2Dir ? { dir: opts.tau2Dir } : {});
      const list = loadTau2Tasks(data, opts.domain, { version: opts.taskVersion, split: opts.split }).map((t) => ({
        id: t.id,
        split: t.split,
        reward_basis: t.rewardBasis,
        needs_judge: t.needsJudge,
        actions: t.record.evaluation_criteria.actions?.length ?? 0,
      }));
      if (opts.json) {
        process.stdout.write(
          `${JSON.stringify({ domain: opts.domain, task_version: opts.taskVersion, tau2_commit: data.commit, split: opts.split, tasks: list })}\n`,
        );
        return;
      }
      process.stdout.write(`${opts.domain} (${opts.taskVersion}, ${opts.split}): ${list.length} tasks\n`);
      for (const t of list)
        process.stdout.write(
          `  ${t.id.padStart(4)}  ${t.split.padEnd(5)}  ${t.reward_basis.join('+').padEnd(16)}  ${t.needs_judge ? 'judge' : ''}\n`,
        );
    },
  );

const bench = program.command('bench').description('benchmarks (JSON on stdout with --json, progress on stderr)');
bench
  .command('gateway')
  .description('gateway send + CAS transition rate against a bare compare-and-set on the same database, and race counters')
  .option('--json', 'print only the JSON result on stdout')
  .option('--stores <list>', 'comma-separated: sqlite,postgres', 'sqlite,postgres')
  .option('--rounds <n>', 'alternating measurement rounds per store', positive, 5)
  .option('--round-ms <ms>', 'length of one measurement round', positive, 1500)
  .option('--race <n>', 'race interleavings per store for the counters', positive, 2000)
  .action(async (opts: { json?: boolean; stores: string; rounds: number; roundMs: number; race: number }) => {
    const stores = opts.stores.split(',').map((s) => s.trim());
    const bad = stores.filter((s) => s !== 'sqlite' && s !== 'postgres');
    if (bad.length > 0 || stores.length === 0)
      throw new InvalidArgumentError(`--stores takes sqlite and/or postgres, got "${opts.stores}".`);
    // Loaded only when benchmarking, so that `serve` starts without it.
    const { benchGateway } = await import('./bench-gateway.js');
    const result = await benchGateway({
      stores: stores as Array<'sqlite' | 'postgres'>,
      rounds: opts.rounds,
      roundMs: opts.roundMs,
      raceInterleavings: opts.race,
      progress: (line) => process.stderr.write(`baton bench: ${line}\n`),
    });
    process.stdout.write(`${JSON.stringify(result, null, opts.json ? 0 : 2)}\n`);
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`baton: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`baton: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
