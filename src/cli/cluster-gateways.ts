/**
 * The gateway processes of `baton bench cluster`: real `baton serve --store postgres` OS
 * processes (the CLI a team runs, `node bin/baton.js serve`), one per slot, each slot on a port of
 * its own that a restart reuses (a load balancer's list of backends does not change when a
 * process restarts). A slot is killed (SIGKILL: nothing runs after it), stopped (SIGTERM: the
 * graceful drain of `serve`) and started again; CPU time is read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../testing/throwaway-postgres.js';

/** The CLI every gateway runs: bin/baton.js of this package. */
export const BATON_BIN = fileURLToPath(new URL('../../bin/baton.js', import.meta.url));

/** Options of {@link startGatewaySlots}. */
export interface GatewaySlotsOptions {
  count: number;
  pgUrl: string;
  /** `--turn-lease-ms` of every gateway. */
  turnLeaseMs: number;
  /** `--pg-pool-size` of every gateway. */
  poolSize: number;
  progress?: (line: string) => void;
}

/** One gateway slot: its address, and the process serving it now (null while down). */
export interface GatewaySlot {
  index: number;
  base: string;
  port: number;
  child: ChildProcess | null;
  /** CPU seconds of the slot's processes that already exited. */
  exitedCpuSeconds: number;
  starts: number;
}

const TICKS_PER_SECOND = 100;

/** Every gateway process running now, over all slots: killed if the benchmark itself is interrupted, so none is left behind. */
const running = new Set<ChildProcess>();
let guarded = false;
function guardAgainstOrphans(): void {
  if (guarded) return;
  guarded = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      for (const child of running) child.kill('SIGKILL');
      process.exit(130);
    });
}

/** User + system CPU seconds of a live process (fields 14 and 15 of /proc/<pid>/stat), optionally with its reaped children's (16, 17). */
export function cpuSecondsOf(pid: number, withChildren = false): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = (field: number) => Number(fields[field - 3]);
    return (at(14) + at(15) + (withChildren ? at(16) + at(17) : 0)) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds of a process and every live descendant, plus the reaped children's (for a server that forks, as PostgreSQL does). */
export function treeCpuSeconds(root: number): number {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(name));
      parents.set(ppid, list);
    } catch {
      // The process ended while we read.
    }
  }
  let total = 0;
  const walk = (pid: number) => {
    total += cpuSecondsOf(pid, true);
    for (const child of parents.get(pid) ?? []) walk(child);
  };
  walk(root);
  return total;
}

/** The gateway slots: start, kill, stop and restart `baton serve` processes on fixed ports. */
export async function startGatewaySlots(options: GatewaySlotsOptions) {
  const slots: GatewaySlot[] = [];
  for (let i = 0; i < options.count; i += 1) {
    const port = await freePort();
    slots.push({ index: i, port, base: `http://127.0.0.1:${port}`, child: null, exitedCpuSeconds: 0, starts: 0 });
  }
  const say = options.progress ?? (() => {});
  /** Error lines the gateways logged (pino level ≥ 50), the first few kept whole. */
  const errors = { count: 0, examples: [] as string[] };
  /** Gateways that exited without being killed or stopped: how, and the end of what they wrote. */
  const crashes: Array<{ gateway: number; code: number | null; signal: string | null; stderr: string }> = [];
  /** The processes the benchmark itself is ending (killed or stopped). */
  const ending = new Set<ChildProcess>();

  /** Starts the slot's process; resolves once it serves (it prints its address after recovering what a dead process left). */
  const start = (slot: GatewaySlot): Promise<void> => {
    const child = spawn(
      process.execPath,
      [
        BATON_BIN,
        'serve',
        '--store',
        'postgres',
        '--pg-url',
        options.pgUrl,
        '--pg-pool-size',
        String(options.poolSize),
        '--host',
        '127.0.0.1',
        '--port',
        String(slot.port),
        '--turn-lease-ms',
        String(options.turnLeaseMs),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } },
    );
    slot.child = child;
    slot.starts += 1;
    running.add(child);
    guardAgainstOrphans();
    // A reaped process's CPU time cannot be read any more: sample it while it lives.
    let cpu = 0;
    const sampler = setInterval(() => (cpu = cpuSecondsOf(child.pid!) || cpu), 250);
    sampler.unref();
    let serving = false;
    let err = '';
    return new Promise<void>((resolve, reject) => {
      let partial = '';
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const lines = (partial + d.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines)
          if (/"level":(50|60)/.test(line)) {
            errors.count += 1;
            if (errors.examples.length < 5) errors.examples.push(`gateway ${slot.index}: ${line.slice(0, 1500)}`);
          }
        if (!serving && /serving on http/.test(err)) {
          serving = true;
          say(`gateway ${slot.index} serving on ${slot.base} (pid ${child.pid})`);
          resolve();
        }
        // Keep only the tail: a long-running gateway's warnings are not collected forever.
        if (err.length > 20_000) err = err.slice(-10_000);
      });
      child.once('exit', (code, signal) => {
        running.delete(child);
        clearInterval(sampler);
        slot.exitedCpuSeconds += cpu;
        if (slot.child === child) slot.child = null;
        if (serving && !ending.has(child)) {
          crashes.push({ gateway: slot.index, code, signal, stderr: err.slice(-3000) });
          say(`gateway ${slot.index} exited by itself (${code ?? signal})`);
        }
        if (!serving) reject(new Error(`gateway ${slot.index} exited (${code ?? signal}) before serving: ${err.slice(-2000)}`));
      });
    });
  };

  const exitOf = (child: ChildProcess) =>
    new Promise<number | null>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
    );

  return {
    slots,
    start,
    errors,
    crashes,
    async startAll(): Promise<void> {
      await Promise.all(slots.map((s) => start(s)));
    },
    /** SIGKILL: the process ends at once, mid-whatever it was doing. */
    async kill(slot: GatewaySlot): Promise<void> {
      const child = slot.child;
      if (!child) return;
      ending.add(child);
      child.kill('SIGKILL');
      await exitOf(child);
      say(`gateway ${slot.index} killed (SIGKILL)`);
    },
    /** SIGTERM: `serve` drains (stops taking work, finishes its turns, closes sockets) and exits; resolves with its exit code. */
    async stop(slot: GatewaySlot): Promise<number | null> {
      const child = slot.child;
      if (!child) return null;
      ending.add(child);
      child.kill('SIGTERM');
      const code = await exitOf(child);
      say(`gateway ${slot.index} stopped (SIGTERM, exit ${code})`);
      return code;
    },
    /** CPU seconds of each slot so far (its processes that exited, and the one running). */
    cpuSeconds(): number[] {
      return slots.map((s) => s.exitedCpuSeconds + (s.child?.pid ? cpuSecondsOf(s.child.pid) : 0));
    },
    alive: () => slots.filter((s) => s.child !== null),
    async closeAll(): Promise<void> {
      await Promise.all(slots.map(async (s) => s.child && (ending.add(s.child), s.child.kill('SIGTERM'), await exitOf(s.child))));
    },
  };
}

export type GatewaySlots = Awaited<ReturnType<typeof startGatewaySlots>>;
