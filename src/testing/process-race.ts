/**
 * The multi-process race suite: randomised schedules of customer messages, agent replies, staff
 * claims (fresh and with a stale copy), human replies, hand-offs and hand-backs on shared
 * conversations, run by several OS processes at once against one store (PostgreSQL, or a SQLite
 * file), with processes killed (SIGKILL) at random points of a batch and restarted — the restarted
 * process runs again whatever the killed one had not finished, as a retried job would. After each
 * batch every conversation it touched is audited: its log replays to the stored conversation,
 * versions go up by one, nobody spoke who was not allowed to at that point of the log, and every
 * message a process was told was stored or delivered is there. Every violation counter must be 0.
 *
 * A testing module, honest about what it is: the operations are the gateway's own (the layer
 * that owns who may speak), driven by scripted workers, not by the agent or a model.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { seededRandom, type ConversationId, type Random } from '../core/index.js';
import { openStore, type StoreConfig } from '../store/open-store.js';
import { gatewayFor } from './gateway-fixture.js';
import { auditConversations, emptyCounters, type Acknowledged, type RaceCounters } from './gateway-race.js';

export const RACE_OPERATION_KINDS = ['customer', 'agent_reply', 'human_reply', 'claim', 'claim_stale', 'hand_back', 'handoff'] as const;
export type RaceOperationKind = (typeof RACE_OPERATION_KINDS)[number];

/** One operation of a schedule, as a worker process is sent it. */
export interface RaceOperation {
  id: number;
  conversation: string;
  kind: RaceOperationKind;
  /** The staff member acting (claims, human replies, hand-backs); shared across processes, so that they race. */
  staff: string;
  /** The customer message's idempotency key (the same when a restarted process sends it again). */
  key: string;
  /** Event-loop turns the worker yields before (and, for a stale claim, within) the operation. */
  yields: number;
}

export interface ProcessRaceOptions {
  /** The shared store; every process opens its own connection to it. */
  store: StoreConfig;
  /** Randomised schedules, one conversation each. */
  schedules: number;
  /** Worker processes racing (default 4). */
  processes?: number;
  /** Schedules per batch: all their operations are in flight together, then audited (default 100). */
  batch?: number;
  /** Processes killed and restarted per batch (default 1). */
  killsPerBatch?: number;
  seed?: number;
  /** Called after each batch. */
  progress?: (done: number, total: number) => void;
  /** A fault planted in the workers, to show that the audit catches it (tests only). */
  fault?: 'phantom_ack';
}

export interface ProcessRaceResult extends RaceCounters {
  schedules: number;
  operations: number;
  processes: number;
  kills: number;
  /** Operations a restarted process ran again because the killed one had not said they were done. */
  rerun: number;
}

/** The operation mix of a schedule (weights): mostly messages and replies, with ownership changes among them. */
const WEIGHTS: Record<RaceOperationKind, number> = {
  customer: 6,
  agent_reply: 5,
  human_reply: 3,
  claim: 2,
  claim_stale: 2,
  hand_back: 2,
  handoff: 2,
};

function pickKind(random: Random): RaceOperationKind {
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
  let r = random.int(0, total - 1);
  for (const kind of RACE_OPERATION_KINDS) {
    r -= WEIGHTS[kind];
    if (r < 0) return kind;
  }
  return 'customer';
}

/** The worker's entry: beside this module, as TypeScript under tsx or as compiled JavaScript. */
function workerCommand(storeJson: string, fault: string | undefined): { command: string; args: string[] } {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  const worker = join(dirname(here), `process-race-worker.${ts ? 'ts' : 'js'}`);
  return { command: process.execPath, args: [...(ts ? ['--import', 'tsx'] : []), worker, storeJson, ...(fault ? [fault] : [])] };
}

/** A worker process and the operations it was sent and has not finished. */
class Worker {
  readonly pending = new Map<number, RaceOperation>();
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = '';

  private stopping = false;

  constructor(
    storeJson: string,
    fault: string | undefined,
    onLine: (worker: Worker, line: { op: number; in?: string; out?: string; done?: true }) => void,
    /** Called when the process ends by itself: not killed here, not told to end. */
    onDied: (stderr: string) => void,
  ) {
    const { command, args } = workerCommand(storeJson, fault);
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    // Only complete lines: a line cut by a kill was never acknowledged.
    createInterface({ input: this.child.stdout }).on('line', (text) => {
      if (text.trim() !== '') onLine(this, JSON.parse(text) as { op: number });
    });
    this.exited = new Promise((resolve) =>
      this.child.on('exit', (code, signal) => {
        if (!this.stopping) onDied(`exited with ${code ?? signal}: ${this.stderr}`);
        resolve({ code, signal });
      }),
    );
    // A write to a killed process's stdin fails; what it had not finished is sent again elsewhere.
    this.child.stdin.on('error', () => {});
  }

  send(op: RaceOperation): void {
    this.pending.set(op.id, op);
    this.child.stdin.write(`${JSON.stringify(op)}\n`);
  }

  /** SIGKILL: returns the operations it had not said were done. */
  async kill(): Promise<RaceOperation[]> {
    this.stopping = true;
    this.child.kill('SIGKILL');
    await this.exited;
    return [...this.pending.values()];
  }

  async end(): Promise<void> {
    this.stopping = true;
    this.child.stdin.end(`${JSON.stringify({ end: true })}\n`);
    const { code, signal } = await this.exited;
    if (code !== 0) throw new Error(`a race worker exited with ${code ?? signal}: ${this.stderr}`);
  }
}

/** Runs the suite; the result's violation counters must all be 0. */
export async function runProcessRace(options: ProcessRaceOptions): Promise<ProcessRaceResult> {
  const processes = options.processes ?? 4;
  const batchSize = options.batch ?? 100;
  const killsPerBatch = options.killsPerBatch ?? 1;
  const random = seededRandom(options.seed ?? 1);
  const storeJson = JSON.stringify(options.store);
  const store = await openStore(options.store);
  const gateway = gatewayFor(store);
  const totals: ProcessRaceResult = { ...emptyCounters(), schedules: 0, operations: 0, processes, kills: 0, rerun: 0 };
  const acknowledged = new Map<string, Acknowledged>();
  const conversationOf = new Map<number, string>();
  let done = 0;
  let wake: (() => void) | null = null;
  const onLine = (worker: Worker, line: { op: number; in?: string; out?: string; done?: true }) => {
    const conversation = conversationOf.get(line.op);
    if (conversation === undefined) return;
    const ack = acknowledged.get(conversation)!;
    if (line.in) ack.inbound.add(line.in);
    if (line.out) ack.delivered.add(line.out);
    if (line.done && worker.pending.delete(line.op)) {
      done += 1;
      wake?.();
    }
  };
  let died: string | null = null;
  const onDied = (why: string) => {
    died = why;
    wake?.();
  };
  const spawnWorker = () => new Worker(storeJson, options.fault, onLine, onDied);
  let workers: Worker[] = Array.from({ length: processes }, spawnWorker);
  let nextOp = 0;
  try {
    for (let start = 0; start < options.schedules; start += batchSize) {
      const count = Math.min(batchSize, options.schedules - start);
      const ids: ConversationId[] = [];
      const ops: Array<{ op: RaceOperation; worker: number }> = [];
      for (let s = 0; s < count; s += 1) {
        const conversation = (await gateway.open()).id;
        ids.push(conversation);
        acknowledged.set(conversation, { inbound: new Set(), delivered: new Set() });
        const steps = random.int(4, 12);
        for (let i = 0; i < steps; i += 1) {
          const id = nextOp++;
          conversationOf.set(id, conversation);
          ops.push({
            op: {
              id,
              conversation,
              kind: pickKind(random),
              staff: `staff_${random.int(1, 3)}`,
              key: `m-${id}`,
              yields: random.int(0, 6),
            },
            worker: random.int(0, processes - 1),
          });
        }
      }
      // Kills at random points of the batch: after this many of its operations are done.
      const killAt = Array.from({ length: killsPerBatch }, () => Math.floor(ops.length * (0.1 + 0.8 * random.next()))).sort(
        (a, b) => a - b,
      );
      const victims = killAt.map(() => random.int(0, processes - 1));
      const batchStart = done;
      for (const { op, worker } of ops) workers[worker]!.send(op);
      const finished = () => workers.every((w) => w.pending.size === 0);
      const killDue = () => killAt.length > 0 && done - batchStart >= killAt[0]!;
      // A kill whose point has passed is carried out even when the acknowledgements that passed it
      // also finished the batch (a worker acknowledges the operations of one commit together).
      while (!finished() || killDue()) {
        if (killDue()) {
          killAt.shift();
          const w = victims.shift()!;
          const left = await workers[w]!.kill();
          totals.kills += 1;
          totals.rerun += left.length;
          const fresh = spawnWorker();
          workers = workers.map((old, i) => (i === w ? fresh : old));
          for (const op of left) fresh.send(op);
          continue;
        }
        // Wait for the next operation to finish, or for a worker to end by itself (a failure).
        if (died === null) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        if (died !== null) throw new Error(`a race worker ended by itself: ${died}`);
      }
      const counters = await auditConversations(store, ids, acknowledged);
      for (const key of Object.keys(counters) as Array<keyof RaceCounters>) totals[key] += counters[key];
      totals.schedules += count;
      totals.operations += ops.length;
      for (const id of ids) acknowledged.delete(id);
      for (const { op } of ops) conversationOf.delete(op.id);
      options.progress?.(totals.schedules, options.schedules);
    }
    await Promise.all(workers.map((w) => w.end()));
  } catch (error) {
    await Promise.all(workers.map((w) => w.kill()));
    throw error;
  } finally {
    await store.close();
  }
  return totals;
}
