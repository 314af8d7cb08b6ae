import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom, type ConversationId } from '../src/core/index.js';
import { openStore, type StoreConfig } from '../src/store/open-store.js';
import { auditConversations, type Acknowledged } from '../src/testing/gateway-race.js';
import { testPostgres } from './support/postgres.js';

const KILLS = 50;

/** Starts the writer, lets it run a random while after its first write, then SIGKILLs it. */
function runAndKill(
  store: StoreConfig,
  seed: number,
  runMs: number,
  fromSpawn: boolean,
): Promise<{ lines: string[]; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'workers', 'crash-writer.ts'), JSON.stringify({ store, seed, conversations: 20 })],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    // Most kills land while the writer writes; some land earlier, while it starts, opens the store or migrates.
    let timer: NodeJS.Timeout | undefined = fromSpawn ? setTimeout(() => child.kill('SIGKILL'), runMs) : undefined;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (timer === undefined && out.includes('ready\n')) timer = setTimeout(() => child.kill('SIGKILL'), runMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL') reject(new Error(`writer ended by itself (code ${code}): ${err}`));
      // Only complete lines were acknowledged; a line cut by the kill does not count.
      else resolve({ lines: out.split('\n').slice(0, -1), signal });
    });
  });
}

async function config(kind: 'sqlite' | 'postgres'): Promise<StoreConfig> {
  if (kind === 'sqlite') return { kind, path: join(mkdtempSync(join(tmpdir(), 'baton-crash-')), 'crash.sqlite') };
  const server = await testPostgres();
  return { kind, url: await server.createDatabase(), poolSize: 4 };
}

describe.each(['sqlite', 'postgres'] as const)('a writer killed with SIGKILL, %s', (kind) => {
  it(`${KILLS} kills at random points: after each restart nothing acknowledged is missing and the log replays`, async () => {
    const store = await config(kind);
    const random = seededRandom(kind === 'sqlite' ? 11 : 12);
    const acknowledged = new Map<string, Acknowledged>();
    let writes = 0;
    for (let run = 0; run < KILLS; run += 1) {
      const early = run % 5 === 4;
      const { lines } = await runAndKill(store, run, early ? random.int(0, 1500) : random.int(20, 400), early);
      for (const line of lines) {
        const [direction, conversation, message] = line.split(' ');
        if (direction !== 'in' && direction !== 'out') continue;
        const ack = acknowledged.get(conversation!) ?? { inbound: new Set(), delivered: new Set() };
        (direction === 'in' ? ack.inbound : ack.delivered).add(message!);
        acknowledged.set(conversation!, ack);
        writes += 1;
      }
      // Restart: open the store as the next process would (migrations, recovery), and audit it.
      const reopened = await openStore(store);
      try {
        const ids: ConversationId[] = await reopened.listConversationIds();
        const counters = await auditConversations(reopened, ids, acknowledged);
        expect(counters, `after kill ${run + 1}`).toMatchObject({
          double_replies: 0,
          lost_messages: 0,
          version_violations: 0,
          replay_mismatches: 0,
          other_violations: 0,
        });
      } finally {
        await reopened.close();
      }
    }
    // The writers did real work between kills.
    expect(writes).toBeGreaterThan(KILLS * 5);
  }, 900_000);
});
