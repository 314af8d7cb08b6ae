/**
 * The dataset card: `README.md` with the YAML header the Hugging Face Hub and `datasets` read
 * (licence, `configs` with the `data_files` of each split, `dataset_info` with each
 * configuration's features and row counts) and a body that says what the data is, how it was
 * made (the commands, commits, Baton versions and seeds of its runs), every field of every file,
 * how secrets were kept out, the licences, and the limits. Everything in it is read from the rows
 * and the schemas, so the same runs give the same card byte for byte.
 */
import { tau2LicenceText, TAU2_REPOSITORY } from '../../../domains/tau2/tau2-licence.js';
import { fieldDocs, yamlFeatures } from './dataset-fields.js';
import { DATASET_CONFIGS, type DatasetConfigName, type DatasetRun } from './dataset-schema.js';
import { toYaml, type YamlValue } from './yaml.js';

/** A file of the dataset: a configuration's split. */
export interface DatasetFile {
  config: DatasetConfigName;
  split: string;
  /** Relative to the dataset folder: `episodes/dev.jsonl`. */
  path: string;
  rows: number;
}

export interface CardInput {
  files: readonly DatasetFile[];
  runs: readonly DatasetRun[];
  /** The domains the rows are of. */
  domains: readonly string[];
  /** The Baton that wrote the export: its version and commit. */
  exporter: { version: string; gitSha: string | null };
  /** The run folders as named to the export, for the command that rebuilds it. */
  runNames: readonly string[];
}

/** tau2-bench's domains: what they contribute carries its notice. */
const TAU2_DOMAINS = new Set(['airline', 'retail']);

function sizeCategory(rows: number): string {
  if (rows < 1_000) return 'n<1K';
  if (rows < 10_000) return '1K<n<10K';
  if (rows < 100_000) return '10K<n<100K';
  if (rows < 1_000_000) return '100K<n<1M';
  return '1M<n<10M';
}

/** The metadata header, as a value. */
function header(input: CardInput): YamlValue {
  const total = input.files.reduce((sum, f) => sum + f.rows, 0);
  const configs = DATASET_CONFIGS.filter((c) => input.files.some((f) => f.config === c.name));
  const filesOf = (name: string) => input.files.filter((f) => f.config === name);
  return {
    license: 'mit',
    language: ['en'],
    pretty_name: 'Baton lab runs',
    size_categories: [sizeCategory(total)],
    task_categories: ['text-generation'],
    tags: [
      'customer-service',
      'agents',
      'tool-use',
      'human-handoff',
      'simulated-users',
      ...(input.domains.some((d) => TAU2_DOMAINS.has(d)) ? ['tau2-bench'] : []),
    ],
    configs: configs.map((c) => ({
      config_name: c.name,
      data_files: filesOf(c.name).map((f) => ({ split: f.split, path: f.path })),
      ...(c.name === 'episodes' ? { default: true } : {}),
    })),
    dataset_info: configs.map((c) => ({
      config_name: c.name,
      features: yamlFeatures(c.schema) as unknown as YamlValue,
      splits: filesOf(c.name).map((f) => ({ name: f.split, num_examples: f.rows })),
    })),
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (text: string) => `\`${text}\``;

function fieldTable(config: (typeof DATASET_CONFIGS)[number]): string[] {
  const rows = fieldDocs(config.schema).map(
    (f) => `| ${code(f.path)} | ${f.type}${f.nullable ? ', nullable' : ''} | ${cell(f.description)} |`,
  );
  return ['| field | type | description |', '| --- | --- | --- |', ...rows];
}

/** The `baton eval` command that makes a run like this one. */
function evalCommand(run: DatasetRun): string {
  const parts = ['baton eval', `--domain ${run.domain}`];
  if (run.tasks !== null) parts.push(`--tasks ${run.tasks}`);
  parts.push(`--split ${run.split}`, `--agent ${run.agent}`);
  if (run.user !== 'scripted') parts.push(`--user ${run.user}`);
  if (run.styles.length > 0) parts.push(`--styles ${run.styles.join(',')}`);
  if (run.trials !== null) parts.push(`--trials ${run.trials}`);
  if (run.seed !== null) parts.push(`--seed ${run.seed}`);
  if (run.task !== null) parts.push(`--task ${run.task}`);
  if (run.limit !== null) parts.push(`--limit ${run.limit}`);
  parts.push(`--out ${run.run_name}`);
  return parts.join(' ');
}

function howMade(input: CardInput): string[] {
  const table = input.runs.map(
    (r) =>
      `| ${code(r.run_id)} | ${cell(r.run_name)} | ${r.domain} | ${r.tasks ?? ''} | ${r.split} | ${cell(r.agent)}${r.agent_model ? ` (${cell(r.agent_model)})` : ''} | ${r.user}${r.user_model ? ` (${cell(r.user_model)})` : ''} | ${r.episodes} | ${r.seed ?? ''} | ${r.git_sha ? code(r.git_sha.slice(0, 12)) : 'unknown'} | ${r.baton_version ?? 'unknown'} |`,
  );
  const commands = input.runs.map((r) => evalCommand(r));
  const models = input.runs.some((r) => r.agent_model !== null || r.user_model !== null);
  return [
    '## How it was made',
    '',
    `Each run is one \`baton eval\` of an agent on a task set, with simulated customers; the episodes are recorded as the run wrote them (\`trajectories.jsonl\`) and the tasks are read from the domain data the runs used (checked against the domain and variant checksums the runs recorded). This folder was written by Baton ${input.exporter.version}${input.exporter.gitSha ? ` (commit \`${input.exporter.gitSha}\`)` : ''}.`,
    '',
    '| run_id | folder | domain | tasks | split | agent | customer | episodes | seed | Baton commit | Baton version |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...table,
    '',
    "The commands (an episode's seed is derived from the run's seed and its key; the hand-off variants from their own seed, recorded in `runs.variant_seed`):",
    '',
    '```sh',
    ...commands,
    `baton export dataset ${input.runNames.join(' ')} --out DIR`,
    '```',
    ...(models
      ? [
          '',
          "Runs with a model (`agent_model`, `user_model`) need the same endpoint (`BATON_LLM_BASE_URL`, `BATON_LLM_MODEL`, `BATON_USER_*`) to be made again, and a model's answers may differ between calls.",
        ]
      : [
          '',
          "None of these runs calls a model: the agents are Baton's reference agents and the customers are scripted, so the commands above give the same episodes again at the same commit.",
        ]),
  ];
}

function licences(input: CardInput): string[] {
  const tau2 = input.domains.filter((d) => TAU2_DOMAINS.has(d));
  const own = input.domains.filter((d) => !TAU2_DOMAINS.has(d));
  const lines = [
    '## Licences',
    '',
    `Baton, and the data it makes (the dialogues of its agents and simulated customers, its hand-off variants${own.includes('billing') ? ', and the synthetic billing domain' : ''}), are under the MIT licence.`,
  ];
  if (tau2.length === 0) {
    lines.push('', "No row here is derived from tau2-bench: every run is on Baton's own domain.");
    return lines;
  }
  lines.push(
    '',
    `The ${tau2.join(' and ')} rows are derived from tau2-bench (${TAU2_REPOSITORY}): the tasks, their customer scenarios, gold actions and evaluation criteria, and the records of tau2-bench's databases that the agents' tool results show. They keep tau2-bench's MIT notice, which goes with every copy of them:`,
    '',
    '```text',
    tau2LicenceText(),
    '```',
  );
  return lines;
}

const LIMITATIONS = [
  '## Limitations',
  '',
  "- **The customers are simulated.** A scripted customer follows a script (its request, the facts it gives when asked, the twist of a hand-off variant); an LLM customer plays a scenario. Neither is a real customer: real conversations are longer, vaguer and less polite, and real hand-off needs are not spread like the variants'.",
  "- **The labels are rules.** A variant's label (`label.should_transfer`, `label.due_turn`, …) follows from how it was built, stated in `label.label_rule`; a plain task's comes from its gold actions. Nobody reviewed them one by one.",
  '- **Episodes of one run are not independent**: each task is run in several styles and trials, so per-task results are correlated; compare agents on the same tasks (paired), as `baton report` does.',
  '- **Unscored episodes** (`success` null): tasks that need an LLM judge (`tasks.needs_judge`) are unscored when the run had none, and episodes that failed for an infrastructure reason (`infrastructure_failure`) measure nothing about the agent.',
  "- **Redaction has limits.** It hides card numbers, CVVs, one-time codes, PINs, passwords, keys and tokens, IBANs, and US and UK national ids, and keeps on purpose what a person taking over needs: names, e-mail addresses, phone numbers, addresses, order and reservation ids, amounts, dates. An unlabelled random string (a bare key, a hash) is kept, because ids look the same. The data is synthetic (billing) or tau2-bench's (airline, retail): the people in it do not exist.",
  '- **Timings are left out** (`timings.jsonl`, `environment.json`): they differ between identical runs and say nothing about the agent.',
];

/** The whole card. */
export function renderCard(input: CardInput): string {
  const configs = DATASET_CONFIGS.filter((c) => input.files.some((f) => f.config === c.name));
  const total = (name: string) => input.files.filter((f) => f.config === name).reduce((sum, f) => sum + f.rows, 0);
  const body = [
    '# Baton lab runs',
    '',
    `Customer-service conversations between AI agents and simulated customers, recorded by Baton's lab (\`baton eval\`): ${input.runs.length} run${input.runs.length === 1 ? '' : 's'} on ${input.domains.join(', ')}, ${total('episodes')} episodes over ${total('tasks')} tasks. Each episode is a whole conversation with the agent's tool calls and their results, the evaluator's verdict, and whether and when the agent handed the customer to a person, against a label that says whether it should have. For studying and training when an agent should hand a conversation to a human, and how it does the rest of the job.`,
    '',
    '```python',
    'from datasets import load_dataset',
    '',
    'episodes = load_dataset("path/to/this/folder", name="episodes")  # also: name="tasks", name="runs"',
    '```',
    '',
    '## Configurations and splits',
    '',
    "A configuration per kind of row; its splits are the lab's (`train`, `dev`, `test`: every source task is in exactly one, and its hand-off variants with it).",
    '',
    '| configuration | split | rows | file |',
    '| --- | --- | --- | --- |',
    ...input.files.map((f) => `| ${f.config} | ${f.split} | ${f.rows} | ${code(f.path)} |`),
    '',
    '- `episodes`: one row per recorded episode (`episodes.run_id` is its run, `episodes.variant_id` or `episodes.task_id` its task).',
    "- `tasks`: one row per task or hand-off variant the runs drew, with the customer's brief or script, the label and the evaluation criteria.",
    '- `runs`: one row per run: its configuration and provenance.',
    '',
    ...howMade(input),
    '',
    '## Fields',
    '',
    'Every field of every file. Nested fields are named by path (`label.due_turn`, `messages[].tool_calls[].name`); a `…_json` field is JSON text, because its shape differs from row to row.',
    ...configs.flatMap((c) => ['', `### ${c.name}`, '', ...fieldTable(c)]),
    '',
    '## Secrets',
    '',
    "Run folders hold only redacted text: `baton eval` redacts every message, tool argument and tool result as the runtime redacts what it stores, before it writes (a secret becomes a marker such as `[otp]` or `[card ••••4242]`). Task scripts and gold actions, which hold the secrets the simulated customers read out, were redacted in the same way here. Before anything was written, the runtime's redaction was run over every row whole (every string by its text and its field name, the contents of the JSON fields included, and every integer by its digits) and found nothing to hide: `baton export dataset` writes nothing when they find a secret.",
    '',
    ...licences(input),
    '',
    ...LIMITATIONS,
  ];
  return `---\n${toYaml(header(input))}---\n\n${body.join('\n')}\n`;
}
