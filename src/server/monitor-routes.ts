/**
 * The training monitor's routes on the environment server (docs/training-monitor.md):
 * `GET /monitor` (JSON: every closed step's figures, the step filling, the alerts, the latest change-point
 * findings), `POST /monitor/step` (the trainer says which step begins) and `GET /metrics`
 * (Prometheus text from prom-client: the last closed step's figures, episode counters, alerts).
 * They have the environment server's callers: the trainer, on the address the server was bound to
 * (127.0.0.1 unless `--host` says otherwise), as `/ws` and `/mcp` do.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry } from 'prom-client';
import { z } from 'zod';
import { clipEchoes } from '../core/index.js';
import { WATCHED_RATES, type StepFigures, type TrainingMonitor } from '../lab/monitor/index.js';

const DeclareStepSchema = z.strictObject({
  step: z.number().int().nonnegative().describe('The training step that begins now: episodes reset from now on belong to it.'),
});

/** The gauges of a step's rates: name, help, and which share of the figures. */
const RATE_GAUGES = [
  ['baton_training_success_rate', 'Successes over scored episodes of the last closed step', 'success'],
  ['baton_training_handoff_rate', 'Episodes handed off over episodes of the last closed step', 'handoff_rate'],
  [
    'baton_training_over_escalation',
    'Unnecessary hand-offs over should-not-transfer episodes (FP / negatives), last closed step',
    'over_escalation',
  ],
  ['baton_training_missed_handoffs', 'Missed hand-offs over should-transfer episodes (FN / positives), last closed step', 'missed'],
  ['baton_training_citation_rate', 'Refusals and hand-offs citing the policy over all of them, last closed step', 'citation_rate'],
] as const;

export function registerMonitorRoutes(
  app: FastifyInstance,
  input: { monitor: TrainingMonitor; file: string | null; doc: (summary: string, body?: z.ZodType) => object },
): void {
  const { monitor } = input;
  const registry = new Registry();
  const last = (): StepFigures | undefined => monitor.steps.at(-1);
  const gauge = (name: string, help: string, labelNames: string[], read: (g: Gauge) => void) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        read(this);
      },
    });
  // A figure with nothing under it (no step yet, no should-transfer episode in the step) is NaN: undefined, never 0.
  const setRate = (g: Gauge, value: number | null | undefined) => g.set(value ?? Number.NaN);
  gauge('baton_training_step', 'The last closed training step (NaN: none yet)', [], (g) => setRate(g, last()?.step));
  gauge('baton_training_steps_closed', 'Training steps closed so far', [], (g) => g.set(monitor.steps.length));
  gauge('baton_training_step_episodes', 'Episodes in the last closed step (NaN: none yet)', [], (g) => setRate(g, last()?.episodes));
  for (const [name, help, rate] of RATE_GAUGES) gauge(name, `${help} (NaN: undefined)`, [], (g) => setRate(g, last()?.[rate].rate));
  gauge('baton_training_reward_mean', 'The mean reward of the last closed step', [], (g) => setRate(g, last()?.reward));
  gauge('baton_training_reward_component_mean', 'The mean of each numeric reward component, last closed step', ['component'], (g) => {
    for (const [component, value] of Object.entries(last()?.components ?? {})) g.set({ component }, value);
  });
  // Counts that only grow are counters; each scrape reads them from the monitor.
  const counter = (name: string, help: string, labelNames: string[], read: (c: Counter) => void) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        read(this);
      },
    });
  counter('baton_training_episodes_total', 'Episodes by how they ended: finished (counted in a step) or abandoned', ['state'], (c) => {
    const e = monitor.snapshot().episodes;
    c.inc({ state: 'finished' }, e.finished);
    c.inc({ state: 'abandoned' }, e.abandoned);
  });
  gauge('baton_training_episodes_in_flight', 'Episodes reset and not yet finished or abandoned', [], (g) =>
    g.set(monitor.snapshot().episodes.in_flight),
  );
  counter('baton_training_alerts_total', 'Loophole alerts raised so far, by watched rate', ['metric'], (c) => {
    for (const metric of WATCHED_RATES) c.inc({ metric }, monitor.alerts.filter((a) => a.metric === metric).length);
  });
  gauge('baton_training_alert_active', '1 while the loophole signature holds for the watched rate, else 0', ['metric'], (g) => {
    for (const metric of WATCHED_RATES) g.set({ metric }, monitor.alerts.some((a) => a.metric === metric && a.open) ? 1 : 0);
  });
  gauge(
    'baton_training_trend_z',
    "The latest change-point test's z (the GLR's, at its best change step), by watched rate and series (rate, difference from success)",
    ['metric', 'series'],
    (g) => {
      const findings = monitor.snapshot().findings;
      for (const metric of WATCHED_RATES) {
        const f = findings[metric];
        if (!f) continue;
        g.set({ metric, series: 'rate' }, f.rate.z);
        g.set({ metric, series: 'difference' }, f.difference.z);
      }
    },
  );

  app.get(
    '/monitor',
    input.doc('The training monitor: figures per closed step, the step filling, alerts, the latest trend findings'),
    async () => ({
      ...monitor.snapshot(),
      file: input.file,
    }),
  );
  app.post(
    '/monitor/step',
    input.doc("Declare the training step that begins now (the trainer's steps replace windows of episodes)", DeclareStepSchema),
    async (request, reply) => {
      const body = DeclareStepSchema.safeParse(request.body ?? {});
      if (!body.success) return reply.code(422).send({ detail: clipEchoes(body.error.issues) });
      const result = monitor.declareStep(body.data.step);
      if (!result.ok) return reply.code(409).send({ detail: { message: result.message, code: 'STEP_REFUSED' } });
      return { step: result.step, closed: result.closed, source: 'trainer' };
    },
  );
  app.get('/metrics', { schema: { summary: 'Prometheus text: the training monitor’s figures and alerts' } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
}
