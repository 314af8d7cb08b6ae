/** `baton bench …`: the benchmarks, each loaded only when it runs (JSON on stdout with --json, progress on stderr). */
import { InvalidArgumentError, type Command } from 'commander';
import { nonNegative, positive, seedOption, tau2DirHelp, tau2DirOption } from './options.js';

/** Adds the `bench` commands to the program. */
export function addBenchCommands(program: Command): void {
  const bench = program.command('bench').description('benchmarks (JSON on stdout with --json, progress on stderr)');
  bench
    .command('rewards')
    .description('dialogues per second scored by r2 and dense (no judge) on one thread, over the trajectories of a default run')
    .option('--json', 'print only the JSON result on stdout')
    .option('--trials <n>', 'trials of the default run whose dialogues are scored', positive, 2)
    .option('--rounds <n>', 'timed passes per reward (the best counts)', positive, 5)
    .action(async (opts: { json?: boolean; trials: number; rounds: number }) => {
      const { benchRewards } = await import('./bench-rewards.js');
      const result = await benchRewards({
        trials: opts.trials,
        rounds: opts.rounds,
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    });
  bench
    .command('reviews')
    .description('the production review estimates (stratified bootstrap) against the runtime metrics, on the same synthetic logs')
    .option('--json', 'print only the JSON result on stdout')
    .option('--conversations <n>', 'conversations in the window', positive, 20_000)
    .option('--rounds <n>', 'timed passes of each (the best counts)', positive, 3)
    .action(async (opts: { json?: boolean; conversations: number; rounds: number }) => {
      const { benchReviews } = await import('./bench-reviews.js');
      const result = benchReviews({
        conversations: opts.conversations,
        handoffShare: 0.15,
        reviewedShare: 0.05,
        rounds: opts.rounds,
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    });
  bench
    .command('replay')
    .description('replay and hash every task of tau2-bench airline and retail (164 tasks), against a same-run baseline')
    .option('--json', 'print only the JSON result on stdout')
    .option(tau2DirOption, tau2DirHelp)
    .option('--baseline-tasks <n>', 'tasks per domain the (slow) baseline replays', positive, 6)
    .action(async (opts: { json?: boolean; tau2Dir?: string; baselineTasks: number }) => {
      const { benchReplay } = await import('./bench-replay.js');
      const result = await benchReplay({
        ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
        baselineTasks: opts.baselineTasks,
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    });

  bench
    .command('runner')
    .description(
      "the runner's model-call efficiency at a fixed latency (scripted OpenAI-compatible server), and scripted episodes per second",
    )
    .option('--json', 'print only the JSON result on stdout')
    .option('--concurrency <n>', 'episodes at once', positive, 32)
    .option('--latency-ms <ms>', 'latency of every model call', positive, 100)
    .option('--trials <n>', "trials of billing's 150 dev hand-off episodes in the timed run", positive, 8)
    .option('--workers <n>', 'threads running episodes (baton eval --workers)', positive, 1)
    .option(tau2DirOption, tau2DirHelp)
    .action(async (opts: { json?: boolean; concurrency: number; latencyMs: number; trials: number; workers: number; tau2Dir?: string }) => {
      const { benchRunner } = await import('./bench-runner.js');
      const result = await benchRunner({
        concurrency: opts.concurrency,
        workers: opts.workers,
        latencyMs: opts.latencyMs,
        trials: opts.trials,
        ...(opts.tau2Dir ? { tau2Dir: opts.tau2Dir } : {}),
        progress: (line) => process.stderr.write(`${line}\n`),
      });
      process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    });

  bench
    .command('decider')
    .description('hand-off decisions per second on one core, the current detector beside the pre-issue-13 lexicon (same run)')
    .option('--json', 'print only the JSON result on stdout')
    .option('--rounds <n>', 'timed passes per detector', positive, 5)
    .action(async (opts: { json?: boolean; rounds: number }) => {
      const { benchDecider } = await import('./bench-decider.js');
      const result = await benchDecider({ rounds: opts.rounds, progress: (line) => process.stderr.write(`${line}\n`) });
      process.stdout.write(opts.json ? `${JSON.stringify(result)}\n` : `${JSON.stringify(result, null, 2)}\n`);
    });

  bench
    .command('serve')
    .description(
      'customer messages per second through baton serve over HTTP with an agent answering, against bare gateway.receive + gateway.send',
    )
    .option('--json', 'print only the JSON result on stdout')
    .option('--concurrency <n>', 'conversations in flight at once', positive, 64)
    .option('--messages <n>', 'customer messages per round (one per conversation)', positive, 2000)
    .option('--rounds <n>', 'alternating measurement rounds', positive, 3)
    .action(async (opts: { json?: boolean; concurrency: number; messages: number; rounds: number }) => {
      const { benchServe } = await import('./bench-serve.js');
      const result = await benchServe({ ...opts, progress: (line) => process.stderr.write(`baton bench: ${line}\n`) });
      process.stdout.write(`${JSON.stringify(result, null, opts.json ? 0 : 2)}\n`);
    });

  bench
    .command('router')
    .description(
      'routing decisions per second (1,000 staff, 10,000 waiting) against one indexed SELECT … FOR UPDATE SKIP LOCKED claim, on PostgreSQL',
    )
    .option('--json', 'print only the JSON result on stdout')
    .option('--staff <n>', 'staff members (capacity 3 each)', positive, 1000)
    .option('--waiting <n>', 'conversations waiting once every slot is offered', positive, 10_000)
    .option('--concurrency <n>', 'routing clients at once (connections)', positive, 4)
    .option('--rounds <n>', 'alternating measurement rounds', positive, 3)
    .option('--round-ms <ms>', 'length of one measurement round', positive, 3000)
    .action(async (opts: { json?: boolean; staff: number; waiting: number; concurrency: number; rounds: number; roundMs: number }) => {
      const { benchRouter } = await import('./bench-router.js');
      const result = await benchRouter({ ...opts, progress: (line) => process.stderr.write(`baton bench: ${line}\n`) });
      process.stdout.write(`${JSON.stringify(result, null, opts.json ? 0 : 2)}\n`);
    });

  bench
    .command('console')
    .description(
      'events per second pushed to connected consoles over the staff stream, and the log-to-console delay, against a raw WebSocket broadcast',
    )
    .option('--json', 'print only the JSON result on stdout')
    .option('--consoles <n>', 'consoles connected, each following the conversation', positive, 200)
    .option('--events <n>', 'events written per round', positive, 1000)
    .option('--rounds <n>', 'alternating measurement rounds', positive, 3)
    .action(async (opts: { json?: boolean; consoles: number; events: number; rounds: number }) => {
      const { benchConsole } = await import('./bench-console.js');
      const result = await benchConsole({ ...opts, progress: (line) => process.stderr.write(`baton bench: ${line}\n`) });
      process.stdout.write(`${JSON.stringify(result, null, opts.json ? 0 : 2)}\n`);
    });

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
  bench
    .command('queue')
    .description('scripted episodes over baton eval --queue: 2 baton worker processes against 1, beside the same run in one process')
    .option('--json', 'print only the JSON result on stdout')
    .option('--trials <n>', "trials of billing's 150 dev hand-off episodes in each timed run", positive, 4)
    .option('--concurrency <n>', 'episodes at once in each worker process', positive, 2)
    .action(async (opts: { json?: boolean; trials: number; concurrency: number }) => {
      const { benchQueue } = await import('./bench-queue.js');
      const result = await benchQueue({
        trials: opts.trials,
        concurrency: opts.concurrency,
        progress: (line) => process.stderr.write(`baton bench: ${line}\n`),
      });
      process.stdout.write(`${JSON.stringify(result, null, opts.json ? 0 : 2)}\n`);
    });

  bench
    .command('cluster')
    .description(
      'K baton serve processes on one PostgreSQL: customers, staff and consoles under SIGKILLs and restarts (and --rolling restarts); the final logs checked; throughput with 1, 2, 4 gateways',
    )
    .option('--json', 'print only the JSON result on stdout')
    .option('--gateways <n>', 'baton serve processes in the disrupted run', positive, 4)
    .option('--kills <n>', 'gateways killed with SIGKILL (and started again) during the run', nonNegative, 10)
    .option('--conversations <n>', 'conversations in the disrupted run', positive, 2000)
    .option('--staff <n>', 'simulated staff members', positive, 8)
    .option('--consoles <n>', 'consoles following conversations on the staff stream (20 each)', positive, 10)
    .option('--concurrency <n>', 'conversations in flight at once', positive, 64)
    .option('--rolling', 'also restart every gateway in turn with SIGTERM (graceful drain) during the run')
    .option('--seed <n>', 'seed of the kill times and targets', seedOption, 1)
    .option('--scaling <list>', 'gateway counts whose throughput is measured first, comma-separated ("" for none)', '1,2,4')
    .option('--scaling-conversations <n>', 'conversations per throughput measurement', positive, 600)
    .option('--handoff-every <n>', 'one conversation in this many asks for a person', positive, 5)
    .option('--turn-lease-ms <ms>', "the gateways' turn lease: how long a killed gateway holds a conversation up", positive, 10_000)
    .option('--handoff-timeout-ms <ms>', 'a hand-off still pending after this long is stuck', positive, 60_000)
    .action(
      async (opts: {
        json?: boolean;
        gateways: number;
        kills: number;
        conversations: number;
        staff: number;
        consoles: number;
        concurrency: number;
        rolling?: boolean;
        seed: number;
        scaling: string;
        scalingConversations: number;
        handoffEvery: number;
        turnLeaseMs: number;
        handoffTimeoutMs: number;
      }) => {
        const scaling = opts.scaling
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .map((s) => {
            const n = Number(s);
            if (!Number.isInteger(n) || n < 1)
              throw new InvalidArgumentError(`--scaling takes gateway counts such as 1,2,4, got "${opts.scaling}".`);
            return n;
          });
        const { benchCluster } = await import('./bench-cluster.js');
        const result = await benchCluster({
          ...opts,
          rolling: opts.rolling === true,
          scaling,
          progress: (line) => process.stderr.write(`baton bench: ${line}\n`),
        });
        process.stdout.write(`${JSON.stringify(result, null, opts.json ? 0 : 2)}\n`);
      },
    );
}
