/** Helpers of the production-to-lab tests: customers over HTTP, the built CLI, a run's records. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ConversationId, StoredEvent } from '../../src/core/index.js';
import type { EpisodeRecord } from '../../src/lab/records.js';
import { json } from './http-json.js';
import type { TestRuntime } from './runtime-server.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'baton.js');

/** The built CLI (dist/), in `cwd`, with nothing of this process's environment but PATH and HOME. */
export const baton = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env['PATH'], HOME: process.env['HOME'] } });

/** A conversation a customer writes over HTTP, each message answered before the next; its id and log. */
export async function converse(t: TestRuntime, texts: readonly string[]): Promise<{ id: ConversationId; log: StoredEvent[] }> {
  const opened = await json(t.base, '/v1/conversations', { body: {} });
  expect(opened.status).toBe(201);
  const id = (opened.body['conversation'] as { id: ConversationId }).id;
  const token = opened.body['customerToken'] as string;
  for (const [i, text] of texts.entries()) {
    const sent = await json(t.base, `/v1/conversations/${id}/messages`, { body: { text }, token, key: `${id}-${i}` });
    expect(sent.status).toBe(201);
    await t.runtime.service.idle();
  }
  return { id, log: await t.store.listEvents(id) };
}

/** `baton eval --tasks production --json` of the rule agent on a task set's train split: its records and what it printed. */
export function evalProduction(set: string, out: string, cwd: string): { records: EpisodeRecord[]; stdout: string } {
  const run = baton(
    [
      'eval',
      '--domain',
      'billing',
      '--tasks',
      'production',
      '--task-set',
      set,
      '--split',
      'train',
      '--agent',
      'rule',
      '--styles',
      'neutral',
      '--out',
      out,
      '--json',
    ],
    cwd,
  );
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.status, run.stderr).toBe(0);
  const records = readFileSync(join(out, 'trajectories.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EpisodeRecord);
  return { records, stdout: run.stdout };
}
