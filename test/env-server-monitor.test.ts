/**
 * The training monitor end to end, through the real environment server over HTTP and WebSocket:
 * real episodes (the oracle over /ws, an agent that hands off at once) make steps — first windows
 * of episodes, then the trainer's own steps (POST /monitor/step) — whose figures GET /monitor (JSON)
 * and GET /metrics (Prometheus text) carry and the monitor's file keeps.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../src/core/index.js';
import type { Domain } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { envSessionOptions, nextAction } from '../src/lab/env/setup.js';
import { MONITOR_FILE, monitorFileSink, readMonitorRun, TrainingMonitor, type MonitorSnapshot } from '../src/lab/monitor/index.js';
import { buildEnvServer } from '../src/server/env-server.js';
import { LOOPHOLE_CURVE, scriptedTrainingRun } from '../src/testing/scripted-training-run.js';
import { connect } from './support/env-ws-client.js';
import { json } from './support/http-json.js';

let domain: Domain;
let base: string;
let dir: string;
let close: () => Promise<void>;
const logged: string[] = [];

beforeAll(async () => {
  domain = await loadDomain('billing');
  dir = mkdtempSync(join(tmpdir(), 'baton-env-monitor-'));
  const monitor = new TrainingMonitor({
    config: { windowEpisodes: 2 },
    sink: monitorFileSink(dir),
    log: (l) => logged.push(l),
    about: { domain: 'billing' },
  });
  const session = envSessionOptions(domain, { tasks: 'main', split: 'train', reward: 'r2', checks: 'off' });
  const app = buildEnvServer({
    name: 'baton-billing',
    description: 'test',
    session,
    maxSessions: 4,
    idleTimeoutMs: 60_000,
    monitor: { monitor, file: join(dir, MONITOR_FILE) },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  close = () => app.close();
});

afterAll(async () => close());

type Client = Awaited<ReturnType<typeof connect>>;

/** Plays the oracle of a task over the socket to its end; the last observation. */
async function playOracle(client: Client, taskId: string) {
  let frame = await client.send({ type: 'reset', data: { task: taskId } });
  const task = domain.tasks.find((t) => t.id === taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  const oracle = createOraclePolicy(domain, task);
  const mine: ChatMessage[] = [];
  for (let i = 0; i < 60 && frame.data.done !== true; i++)
    frame = await client.send({ type: 'step', data: await nextAction(oracle, mine) });
  expect(frame.data.done).toBe(true);
  return frame.data;
}

/** Hands the conversation off at the agent's first step, due or not. */
async function handOffAtOnce(client: Client, taskId: string) {
  await client.send({ type: 'reset', data: { task: taskId } });
  const frame = await client.send({
    type: 'step',
    data: {
      type: 'tool_call',
      name: 'handoff',
      arguments: { target: 'queue_billing', reason: 'customer_request', summary: 'The customer is handed to billing.' },
      content: 'I am passing you to a colleague.',
    },
  });
  expect(frame.data.done).toBe(true);
  return frame.data;
}

const monitorJson = async () => (await json(base, '/monitor')).body as unknown as MonitorSnapshot & { file: string };

/** The samples of one metric family in a Prometheus text, by their labels. */
async function scrape(at = base) {
  const res = await fetch(`${at}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text());
  return (name: string, labels: Record<string, string> = {}) => {
    const family = families.find((f) => f.name === name);
    const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
    return sample ? Number(sample.value) : undefined;
  };
}

describe('the training monitor on the environment server', () => {
  it('serves NaN, not 0, for figures of steps not yet closed', async () => {
    const metric = await scrape();
    expect(metric('baton_training_step')).toBeNaN();
    expect(metric('baton_training_over_escalation')).toBeNaN();
    expect(metric('baton_training_steps_closed')).toBe(0);
  });

  it('makes steps of real episodes, first windows then the trainer’s, and serves their figures as JSON and Prometheus text', async () => {
    const client = await connect(`${base.replace(/^http/, 'ws')}/ws`);
    // Step 1 (a window of two episodes): the oracle on a plan change and on a due hand-off.
    const planChange = await playOracle(client, 'billing_020');
    const dueHandoff = await playOracle(client, 'billing_009');
    expect([planChange.observation?.['success'], dueHandoff.observation?.['handed_off']]).toEqual([true, true]);
    let snapshot = await monitorJson();
    expect(snapshot.source).toBe('episodes');
    expect(snapshot.steps).toHaveLength(1);
    expect(snapshot.steps[0]).toMatchObject({ step: 1, episodes: 2, tp: 1, fp: 0, fn: 0, tn: 1 });
    expect(snapshot.steps[0]?.success).toEqual({ num: 2, den: 2, rate: 1 });
    expect(snapshot.steps[0]?.reward).toBeCloseTo(((planChange.reward as number) + (dueHandoff.reward as number)) / 2, 12);

    // The trainer's step 10: a hand-off nobody needed, and an episode abandoned by a reset halfway.
    expect(await json(base, '/monitor/step', { body: { step: 10 } })).toEqual({
      status: 200,
      body: { step: 10, closed: [], source: 'trainer' },
    });
    await client.send({ type: 'reset', data: { task: 'billing_008' } });
    const needless = await handOffAtOnce(client, 'billing_008');
    expect(needless.observation?.['handed_off']).toBe(true);
    snapshot = await monitorJson();
    expect(snapshot.source).toBe('trainer');
    expect(snapshot.current).toMatchObject({ step: 10, episodes: 1, fp: 1, in_flight: 0 });
    expect(snapshot.episodes).toEqual({ finished: 3, abandoned: 1, in_flight: 0 });
    // A stateless HTTP reset plays no episode and is not counted.
    expect((await json(base, '/reset', { body: { task: 'billing_008' } })).status).toBe(200);
    expect((await monitorJson()).episodes).toEqual({ finished: 3, abandoned: 1, in_flight: 0 });

    expect(await json(base, '/monitor/step', { body: { step: 11 } })).toEqual({
      status: 200,
      body: { step: 11, closed: [10], source: 'trainer' },
    });
    snapshot = await monitorJson();
    expect(snapshot.steps.map((s) => s.step)).toEqual([1, 10]);
    const step10 = snapshot.steps[1];
    expect(step10).toMatchObject({ episodes: 1, fp: 1, negatives: 1, positives: 0 });
    expect(step10?.over_escalation.rate).toBe(1);
    expect(step10?.handoff_rate.rate).toBe(1);
    expect(step10?.success.rate).toBe(0);
    expect(step10?.reward).toBe(needless.reward);
    expect(step10?.components['false_transfer']).toBe(1);
    expect(snapshot.alerts).toEqual([]);
    expect(snapshot.findings).toEqual({ handoff_rate: null, over_escalation: null }); // fewer steps than the window
    expect(snapshot.file).toBe(join(dir, MONITOR_FILE));

    const metric = await scrape();
    expect(metric('baton_training_step')).toBe(10);
    expect(metric('baton_training_steps_closed')).toBe(2);
    expect(metric('baton_training_step_episodes')).toBe(1);
    expect(metric('baton_training_over_escalation')).toBe(1);
    expect(metric('baton_training_handoff_rate')).toBe(1);
    expect(metric('baton_training_success_rate')).toBe(0);
    expect(metric('baton_training_missed_handoffs')).toBeNaN(); // no positive in step 10: undefined, not 0
    expect(metric('baton_training_reward_mean')).toBe(needless.reward);
    expect(metric('baton_training_reward_component_mean', { component: 'false_transfer' })).toBe(1);
    expect(metric('baton_training_episodes_total', { state: 'finished' })).toBe(3);
    expect(metric('baton_training_episodes_total', { state: 'abandoned' })).toBe(1);
    expect(metric('baton_training_episodes_in_flight')).toBe(0);
    expect(metric('baton_training_alerts_total', { metric: 'over_escalation' })).toBe(0);
    expect(metric('baton_training_alert_active', { metric: 'handoff_rate' })).toBe(0);

    // The file holds what was served.
    const run = readMonitorRun(dir);
    expect(run.steps).toEqual(snapshot.steps);
    expect(run.about).toEqual({ domain: 'billing' });
    client.close();
    await client.closed;
  }, 180_000);

  it('answers a bad step declaration with 4xx and changes nothing', async () => {
    const before = await monitorJson();
    expect(await json(base, '/monitor/step', { body: { step: 3 } })).toEqual({
      status: 409,
      body: { detail: { message: 'step 3 is not after step 11, the one declared last', code: 'STEP_REFUSED' } },
    });
    for (const body of [{ step: 'twelve' }, { step: 12.5 }, { step: -1 }, { step: 12, extra: true }, {}, []]) {
      const answer = await json(base, '/monitor/step', { body });
      expect(answer.status, JSON.stringify(body)).toBe(422);
    }
    const notJson = await fetch(`${base}/monitor/step`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{no' });
    expect(notJson.status).toBe(400);
    const after = await monitorJson();
    expect(after.steps).toEqual(before.steps);
    expect(after.current).toEqual(before.current);
    expect(logged).toEqual([]);
  });

  it('lists its routes in the OpenAPI document', async () => {
    const paths = Object.keys(((await json(base, '/openapi.json')).body['paths'] ?? {}) as Record<string, unknown>);
    expect(paths).toEqual(expect.arrayContaining(['/monitor', '/monitor/step', '/metrics']));
  });
});

describe('an alert on the environment server', () => {
  it('is in GET /monitor with its window and numbers, in the Prometheus gauges, and in the log', async () => {
    const lines: string[] = [];
    const monitor = new TrainingMonitor({ config: { windowEpisodes: 4096 }, log: (l) => lines.push(l) });
    const session = envSessionOptions(domain, { tasks: 'main', split: 'train', reward: 'r2', checks: 'off' });
    const app = buildEnvServer({
      name: 'b',
      description: 't',
      session,
      maxSessions: 1,
      idleTimeoutMs: 60_000,
      monitor: { monitor, file: null },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const at = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    try {
      // Scripted episodes (seed 000's curve), not played ones: a real run of 40 steps of 4,096 episodes is out of a test's reach.
      for (const { step, episodes } of scriptedTrainingRun({ curve: LOOPHOLE_CURVE, seed: 11, episodesPerStep: 4096 })) {
        monitor.record(episodes);
        if (step === 40) break;
      }
      const snapshot = (await json(at, '/monitor')).body as unknown as MonitorSnapshot;
      const alert = snapshot.alerts.find((a) => a.metric === 'over_escalation');
      expect(alert).toMatchObject({ open: true, raised_at_step: expect.any(Number), to_step: 40 });
      expect(alert?.raised_at_step).toBeGreaterThan(30);
      expect(alert?.message).toMatch(/^over-escalation climbed from .* over steps \d+–\d+ .* while success went from/);
      expect(snapshot.findings.over_escalation?.signature).toBe(true);
      const metric = await scrape(at);
      expect(metric('baton_training_alerts_total', { metric: 'over_escalation' })).toBe(1);
      expect(metric('baton_training_alert_active', { metric: 'over_escalation' })).toBe(1);
      expect(metric('baton_training_trend_z', { metric: 'over_escalation', series: 'difference' })).toBeGreaterThanOrEqual(4);
      expect(lines.filter((l) => l.startsWith('ALERT'))).toEqual(
        snapshot.alerts.map((a) => `ALERT ${a.id} (${a.metric}) after step ${a.raised_at_step}: ${a.message}`),
      );
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('baton env serve (dist/) with its monitor', () => {
  const bin = join(import.meta.dirname, '..', 'bin', 'baton.js');

  it('serves the monitor of the episodes played, writes its folder, and says where', async () => {
    const monitorDir = join(mkdtempSync(join(tmpdir(), 'baton-env-serve-monitor-')), 'run');
    const child = spawn(
      process.execPath,
      [bin, 'env', 'serve', '--domain', 'billing', '--port', '0', '--checks', 'off', '--monitor-window', '1', '--monitor-dir', monitorDir],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    try {
      let err = '';
      const address = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString('utf8');
          const found = /training monitor at (http:\/\/[^\s]+)\/monitor .* writing ([^\n]+)\n/.exec(err);
          if (found?.[1]) resolve(found[1]);
        });
        child.once('exit', () => reject(new Error(`exited: ${err}`)));
      });
      expect(err).toContain(`steps of 1 episodes until POST /monitor/step; writing ${join(monitorDir, MONITOR_FILE)}`);
      expect(existsSync(monitorDir)).toBe(false); // nothing written before a step closes
      const client = await connect(`${address.replace(/^http/, 'ws')}/ws`);
      const last = await playOracle(client, 'billing_020');
      client.close();
      const snapshot = (await json(address, '/monitor')).body as unknown as MonitorSnapshot & { file: string };
      expect(snapshot.steps).toHaveLength(1);
      expect(snapshot.steps[0]).toMatchObject({ step: 1, episodes: 1, reward: last.reward });
      expect(snapshot.file).toBe(join(monitorDir, MONITOR_FILE));
      expect(readMonitorRun(monitorDir)).toMatchObject({ about: { domain: 'billing', tasks: 'main', split: 'train', reward: 'r2' } });
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);

  it('refuses a bad monitor flag before it starts, saying which', async () => {
    for (const [flag, value, message] of [
      ['--monitor-z', 'abc', /--monitor-\*: the change test's z threshold must be positive/],
      ['--monitor-climb-steps', '1', /the longest climb must be a whole number of steps, at least 4/],
      ['--monitor-history-steps', '20', /the history must hold the baseline and the longest climb/],
      ['--monitor-min-rise', '2', /minimum rise must be a share/],
    ] as const) {
      const bad = spawn(process.execPath, [bin, 'env', 'serve', '--domain', 'billing', '--port', '0', flag, value], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let text = '';
      bad.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      expect(await new Promise((resolve) => bad.once('exit', resolve))).toBe(2);
      expect(text).toMatch(message);
    }
  }, 60_000);
});
