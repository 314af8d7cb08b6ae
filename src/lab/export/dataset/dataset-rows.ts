/**
 * The rows of a released dataset, built from what a run folder holds: one `runs` row per folder,
 * one `episodes` row per record, and one `tasks` row per task or hand-off variant the records
 * drew, read from the domain (and the variant generator) the run used. Rows are plain values in
 * the order of their schema (`dataset-schema.ts`); the caller parses and writes them.
 *
 * Records are already redacted (`records.ts` redacts before anything is written). Tasks are not:
 * a billing script holds the verification code the simulated customer reads out, as the runs'
 * customers said it before the recorder replaced it. Task rows are redacted here the way the
 * runtime redacts what it stores (by field name and by value), so a task shows `[otp]` where its
 * episodes do.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { VIOLATION_RULES, type EpisodeAnalysis } from '../../../analysis/episode-analysis.js';
import { redactArguments, redactText, redactValue } from '../../../core/index.js';
import type { Domain, DomainTask } from '../../../domains/domain.js';
import type { TrajectoryMessage } from '../../../domains/trajectory.js';
import type { EpisodeRecord } from '../../records.js';
import type { LoadedRun } from '../../report/load.js';
import type { HandoffVariant } from '../../variant.js';
import type { DatasetEpisode, DatasetRun, DatasetTask } from './dataset-schema.js';

/** Record fields the dataset carries (under its own names), and those it leaves out on purpose. */
const RECORD_FIELDS = new Set([
  'version',
  'key',
  'domain',
  'task_id',
  'variant_id',
  'kind',
  'split',
  'agent',
  'user',
  'style',
  'trial',
  'seed',
  'label',
  'termination',
  'customer_turns',
  'evaluation',
  'handoff',
  'packet',
  'messages',
  'infrastructure_failure',
  'model_calls',
]);
/** Wall time is run-environment (older folders kept it in their records): it differs between identical runs. */
const RECORD_FIELDS_LEFT_OUT = new Set(['wall_ms']);

/** The id of a run: its `run.json` and `trajectories.jsonl`, hashed. The same bytes are the same run, wherever the folder is. */
export function runIdOf(dir: string): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(dir, 'run.json'))).update('\0');
  hash.update(readFileSync(join(dir, 'trajectories.jsonl')));
  return `run_${hash.digest('hex').slice(0, 16)}`;
}

type Config = Record<string, unknown>;
const configOf = (run: LoadedRun): Config => (run.run['config'] ?? {}) as Config;
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const int = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) ? value : null);

/** The split a run drew its tasks from: its configuration's, else its records'. */
export function runSplit(run: LoadedRun): string {
  const split = str(configOf(run)['split']) ?? run.records[0]?.split;
  if (split === undefined) throw new Error(`${run.dir}: run.json names no split and there are no records`);
  return split;
}

/** The `runs` row of a loaded run folder. */
export function runRow(run: LoadedRun, runId: string): DatasetRun {
  const c = configOf(run);
  const scored = run.records.filter((r) => r.evaluation.status === 'scored');
  return {
    run_id: runId,
    run_name: basename(run.dir),
    domain: run.domain,
    task_version: str(c['task_version']),
    source: str(c['source']),
    tasks: str(c['tasks']),
    split: runSplit(run),
    agent: run.agent,
    agent_model: str(c['agent_model']),
    user: str(c['user']) ?? run.records[0]?.user ?? 'scripted',
    user_model: str(c['user_model']),
    styles: Array.isArray(c['styles']) ? c['styles'].map(String) : [...new Set(run.records.map((r) => r.style))],
    trials: int(c['trials']),
    seed: int(c['seed']),
    variant_seed: int(c['variant_seed']),
    variants_checksum: str(c['variants_checksum']),
    task: str(c['task']),
    limit: int(c['limit']),
    git_sha: str(run.run['git_sha']),
    code_checksum: str(run.run['code_checksum']),
    domain_checksum: str(run.run['domain_checksum']),
    task_set_checksum: str(run.run['task_set_checksum']),
    baton_version: str(run.run['package_version']),
    planned_episodes: run.planned,
    episodes: run.records.length,
    scored: scored.length,
    successes: scored.filter((r) => r.evaluation.success === true).length,
    run_json: JSON.stringify(run.run),
    metrics_json: JSON.stringify(run.metrics),
  };
}

function messageRow(m: TrajectoryMessage): DatasetEpisode['messages'][number] {
  if (m.role === 'tool') {
    return {
      role: 'tool',
      content: m.content,
      tool_calls: [],
      tool_call_id: m.id,
      error: m.error,
      executed: m.executed ?? null,
      refusal: m.refusal ?? null,
    };
  }
  return {
    role: m.role,
    content: m.content,
    tool_calls: m.toolCalls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments_json: JSON.stringify(call.arguments),
      requestor: call.requestor,
    })),
    tool_call_id: null,
    error: null,
    executed: null,
    refusal: null,
  };
}

/** The `episodes` row of one record; `where` names the record in an error. */
export function episodeRow(record: EpisodeRecord, analysis: EpisodeAnalysis, run: LoadedRun, runId: string, where: string): DatasetEpisode {
  for (const field of Object.keys(record)) {
    if (!RECORD_FIELDS.has(field) && !RECORD_FIELDS_LEFT_OUT.has(field)) {
      throw new Error(
        `${where}: the record has a field "${field}" that the dataset does not describe (src/lab/export/dataset/dataset-schema.ts)`,
      );
    }
  }
  const h = record.handoff;
  return {
    run_id: runId,
    key: record.key,
    record_version: record.version,
    domain: record.domain,
    task_version: str(configOf(run)['task_version']),
    task_id: record.task_id,
    variant_id: record.variant_id,
    kind: record.kind,
    split: record.split,
    agent: record.agent,
    user: record.user,
    style: record.style,
    trial: record.trial,
    seed: record.seed,
    label: { ...record.label },
    termination: record.termination,
    customer_turns: record.customer_turns,
    infrastructure_failure: record.infrastructure_failure ?? null,
    success: record.evaluation.success,
    reward: record.evaluation.reward,
    evaluation_status: record.evaluation.status,
    evaluation_json: JSON.stringify(record.evaluation),
    handoff: h ? { turn: h.turn, reason: h.reason, target: h.target, decided_by: h.decidedBy, evidence: h.evidence } : null,
    handed_off: analysis.transferred,
    handoff_class: analysis.handoff_class,
    violation_rules: VIOLATION_RULES.filter((rule) => analysis.violations.some((v) => v.rule === rule)),
    packet_json: record.packet === null ? null : JSON.stringify(record.packet),
    model_calls: record.model_calls ? { answered: record.model_calls.answered, failed: record.model_calls.failed } : null,
    messages: record.messages.map(messageRow),
  };
}

/** A task row's identity: the same task drawn by two runs is one row. */
export const taskKey = (row: Pick<DatasetTask, 'domain' | 'task_version' | 'task_id' | 'variant_id' | 'split'>): string =>
  JSON.stringify([row.domain, row.task_version, row.task_id, row.variant_id, row.split]);

const redactedString = (text: string) => redactText(text).text;

/** The `tasks` row of a task (and the variant drawn from it, if any), redacted; `run_ids` is left empty for the caller. */
export function taskRow(domain: Domain, task: DomainTask, variant: HandoffVariant | null, split: string): DatasetTask {
  const scenario = redactValue(task.userScenario).value as DomainTask['userScenario'];
  const instructions = scenario.instructions;
  const script = variant ? (redactValue(variant.script).value as HandoffVariant['script']) : null;
  return {
    domain: domain.name,
    task_version: domain.version,
    source: domain.source,
    task_id: task.id,
    variant_id: variant?.id ?? null,
    kind: variant?.kind ?? 'task',
    split,
    run_ids: [],
    reward_basis: [...task.rewardBasis],
    label: variant
      ? {
          should_transfer: variant.should_transfer,
          expected_target: variant.expected_target,
          expected_reason: variant.expected_reason,
          due_turn: variant.due_turn,
          label_rule: redactedString(variant.label_rule),
        }
      : {
          should_transfer: task.handoff.expected,
          expected_target: task.handoff.queue,
          expected_reason: task.handoff.reason,
          due_turn: task.handoff.dueTurn ?? null,
          label_rule: null,
        },
    user_scenario: {
      persona: scenario.persona,
      instructions: typeof instructions === 'string' ? instructions : null,
      domain: typeof instructions === 'string' ? null : instructions.domain,
      reason_for_call: typeof instructions === 'string' ? null : instructions.reason_for_call,
      known_info: typeof instructions === 'string' ? null : instructions.known_info,
      unknown_info: typeof instructions === 'string' ? null : instructions.unknown_info,
      task_instructions: typeof instructions === 'string' ? null : instructions.task_instructions,
    },
    script: script && {
      request: script.request,
      facts: script.facts.map((f) => ({ key: f.key, value: f.value, asked_by: [...f.askedBy], volunteered: f.volunteered })),
      beats: script.beats.map((b) => ({ turn: b.turn, kind: b.kind, text: b.text })),
      on_transfer: script.onTransfer,
      confirms: script.confirms,
      max_turns: script.maxTurns,
    },
    variant_instruction: variant?.instruction === undefined ? null : redactedString(variant.instruction),
    outage_from_turn: variant?.outage?.fromTurn ?? null,
    gold_actions:
      task.actions?.map((a) => ({
        action_id: a.actionId,
        name: a.name,
        arguments_json: JSON.stringify(redactArguments(a.arguments).arguments),
        requestor: a.requestor,
        compare_args: a.compareArgs === null ? null : [...a.compareArgs],
      })) ?? null,
    env_assertions_json: task.envAssertions === null ? null : JSON.stringify(redactValue(task.envAssertions).value),
    communicate_info: task.communicateInfo.map(redactedString),
    nl_assertions: task.nlAssertions.map(redactedString),
    needs_judge: task.needsJudge,
  };
}
