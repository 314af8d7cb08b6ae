/**
 * The rows of a released dataset (`baton export dataset`), one strict zod schema per
 * configuration: `runs`, `episodes` and `tasks`. Each schema is the single statement of its
 * file's fields: every row is parsed with it before anything is written (a field it does not name
 * is refused), the dataset card's field tables and the `dataset_info.features` that Hugging Face
 * `datasets` loads the files with are generated from it (`dataset-fields.ts`), and every field
 * carries its description here.
 *
 * Values whose shape is open (a tool call's arguments, the evaluator's verdict, the context
 * packet, a run's configuration) are JSON text in a `…_json` column: Arrow needs one type per
 * column, and an object whose keys differ from row to row has none. Everything with a fixed shape
 * is typed.
 */
import { z } from 'zod';

const text = (description: string) => z.string().describe(description);
const maybeText = (description: string) => z.string().nullable().describe(description);
const int = (description: string) => z.int().describe(description);
const maybeInt = (description: string) => z.int().nullable().describe(description);
const flag = (description: string) => z.boolean().describe(description);
const texts = (description: string) => z.array(z.string()).describe(description);
const json = (description: string) => z.string().describe(`JSON text: ${description}`);
const maybeJson = (description: string) => z.string().nullable().describe(`JSON text, or null: ${description}`);

const RUN_ID = 'The run this row comes from: `runs.run_id`.';

/** The label an episode is measured against, in `episodes` and `tasks` alike. */
const LabelSchema = z
  .object({
    should_transfer: flag('Whether the right outcome is a hand-off to a person.'),
    expected_target: maybeText('The queue a hand-off should go to (null when none is due, or the task does not say).'),
    expected_reason: maybeText("Why a hand-off is due, in the hand-off decider's vocabulary (null when none is due)."),
    due_turn: maybeInt(
      'The customer turn (1 = the opening message) from which a hand-off is due; null when none is due or it is not known.',
    ),
    label_rule: maybeText(
      'One sentence saying why this label (hand-off variants); null for plain tasks, whose label comes from their gold actions.',
    ),
  })
  .strict()
  .describe('The hand-off label.');

/** One row of `runs`: a run folder's configuration and provenance. */
export const DatasetRunSchema = z
  .object({
    run_id: text(
      'The run: `run_` and the first 16 hex digits of the SHA-256 of its `run.json` and `trajectories.jsonl`. Two folders with the same id hold the same run.',
    ),
    run_name: text("The run folder's own name (never its path)."),
    domain: text("The domain the agent worked in: `billing` (Baton's own), `airline` or `retail` (tau2-bench's)."),
    task_version: maybeText("The version of the domain's task files: `v1` for billing, `current` or `release-37199f3` for tau2-bench."),
    source: maybeText("Where the domain's data came from (for tau2-bench, its pinned commit)."),
    tasks: maybeText("The task set: `main` (the domain's own tasks) or `handoff` (the labelled hand-off variants)."),
    split: text("The split the run drew its tasks from (`train`, `dev`, `test`); also this row's split."),
    agent: text('The agent that was measured (`rule`, `always-transfer`, `llm`, …).'),
    agent_model: maybeText('The model behind `--agent llm` (null for the reference agents).'),
    user: text('The simulated customer: `scripted` (follows a script) or `llm` (a model plays the customer).'),
    user_model: maybeText('The model behind `--user llm` (null for the scripted customer).'),
    styles: texts('The customer styles the run spoke in (`neutral`, `terse`, `frustrated`, …).'),
    trials: maybeInt('Trials per task and style.'),
    seed: maybeInt("The run's seed (each episode's seed is derived from it and the episode's key)."),
    variant_seed: maybeInt('The seed the hand-off variants were generated with.'),
    variants_checksum: maybeText('SHA-256 of the hand-off variant set (null when the run drew none).'),
    task: maybeText('The one task or variant the run was narrowed to with `--task` (null: not narrowed).'),
    limit: maybeInt('The `--limit` the run was cut to (null: not cut).'),
    git_sha: maybeText('The commit of Baton that ran the episodes (null outside a git checkout).'),
    code_checksum: maybeText('SHA-256 of the code that ran (catches edits not yet committed).'),
    domain_checksum: maybeText("SHA-256 of the domain's policy, tools, tasks and initial database as the run saw them."),
    task_set_checksum: maybeText("SHA-256 of the planned episodes' keys: the run's task set."),
    baton_version: maybeText('The version of Baton (package.json) that ran the episodes.'),
    planned_episodes: maybeInt('The episodes the run planned (null when an older run did not say).'),
    episodes: int('The episodes the run recorded: its rows in `episodes`.'),
    scored: int(
      'Recorded episodes the evaluator scored (the others are unscored, e.g. for want of an LLM judge, or failed for an infrastructure reason).',
    ),
    successes: int('Scored episodes the evaluator called a success.'),
    run_json: json("the run folder's `run.json` whole (the resolved configuration and provenance above, and anything else it records)."),
    metrics_json: json(
      "the run's metrics (`metrics.json`, or computed from the records when the folder has none): rates with their bootstrap intervals, per style and kind.",
    ),
  })
  .strict()
  .describe('One row per run folder.');
export type DatasetRun = z.infer<typeof DatasetRunSchema>;

const ToolCallSchema = z
  .object({
    id: text("The call's id; the `tool` message with this `tool_call_id` holds its result."),
    name: text('The tool called (a domain tool, or `handoff` / `transfer_to_human_agents` for a hand-off).'),
    arguments_json: json('the arguments, redacted as the runtime stores them (a secret becomes a marker such as `[otp]`).'),
    requestor: text('Who made the call: `assistant` (every call in these domains) or `user`.'),
  })
  .strict();

const MessageSchema = z
  .object({
    role: text("`assistant` (the agent), `user` (the simulated customer) or `tool` (a tool's result)."),
    content: maybeText('The text, redacted (null on an assistant turn of tool calls alone).'),
    tool_calls: z.array(ToolCallSchema).describe('The tool calls of an assistant turn (empty on other turns).'),
    tool_call_id: maybeText('On a `tool` message: the id of the call it answers (null on other messages).'),
    error: z.boolean().nullable().describe('On a `tool` message: whether the result is an error (null on other messages).'),
    executed: z
      .boolean()
      .nullable()
      .describe(
        "On a `tool` message: false when Baton's harness refused the call before it reached the domain; null when the record does not say (it ran) and on other messages.",
      ),
    refusal: maybeText(
      'On a refused `tool` call: why (`unknown_tool`, `invalid_arguments`, `needs_confirmation`, `constraint`, `rule`, `declined`); else null.',
    ),
  })
  .strict();

const HandoffSchema = z
  .object({
    turn: int('The customer turn the hand-off answered.'),
    reason: text("Why, in the hand-off decider's vocabulary (`customer_request`, `reserved_topic`, …)."),
    target: text('The queue it went to.'),
    decided_by: text(
      "Who decided it: `model` (the agent's own hand-off), `decider` (the hand-off decider) or `harness` (its limits and guardrails).",
    ),
    evidence: maybeText('The words that triggered it, redacted (null when none are recorded).'),
  })
  .strict()
  .nullable()
  .describe('The hand-off as carried out (null: the episode ended without one).');

/** One row of `episodes`: a recorded episode (`trajectories.jsonl`) with its outcome and analysis. */
export const DatasetEpisodeSchema = z
  .object({
    run_id: text(RUN_ID),
    key: text('`<domain>/<task>[/<variant kind>]#<style>#<trial>`: unique within a run, the same episode across runs.'),
    record_version: int('The version of the episode record it was read from.'),
    domain: text('The domain.'),
    task_version: maybeText("The version of the domain's task files (the run's)."),
    task_id: text('The source task, in its domain.'),
    variant_id: maybeText('The hand-off variant (`<domain>/<task>/<kind>`; null for a plain task): `tasks.variant_id`.'),
    kind: text("The variant's kind (`ask_human_direct`, `reserved_legal`, …), or `task` for a plain task."),
    split: text("The split (`train`, `dev`, `test`); also this row's split."),
    agent: text('The agent.'),
    user: text('The simulated customer: `scripted` or `llm`.'),
    style: text('The style the customer spoke in.'),
    trial: int('The trial (0-based) of this task and style.'),
    seed: int("The episode's seed, derived from the run's seed and the key."),
    label: LabelSchema,
    termination: text("Why the conversation ended, in tau2-bench's terms (`user_stop`, `agent_stop`, `max_steps`, `too_many_errors`, …)."),
    customer_turns: int('How many turns the customer spoke.'),
    infrastructure_failure: maybeText(
      'Set when the episode ended for an infrastructure reason (`provider_down`, `user_error`, `provider_unreachable`): not an agent result, left out of the metrics. Null otherwise.',
    ),
    success: z.boolean().nullable().describe("The evaluator's verdict (null when the episode was not scored)."),
    reward: z.number().nullable().describe("The evaluator's reward in [0, 1] (null when not scored)."),
    evaluation_status: text('`scored` or `unscored`.'),
    evaluation_json: json(
      "the evaluator's verdict whole: the reward basis, each component's reward and why (DB hash check, communicated info, gold actions, NL assertions, hand-off check), and the hand-off facts it read.",
    ),
    handoff: HandoffSchema,
    handed_off: flag(
      "Whether the episode handed the customer off, as the analysis reads it (the harness's hand-off or the domain's transfer tool).",
    ),
    handoff_class: text(
      'The hand-off against the label: `tp` (handed off, as due), `fp` (handed off, none due), `fn` (missed), `tn` (kept, rightly).',
    ),
    violation_rules: texts('The policy rules the episode broke, each once (empty: none).'),
    packet_json: maybeJson(
      'the context packet a person taking over would have been given (customer, intent, facts, actions, open questions, suggested next step), redacted; null without a hand-off.',
    ),
    model_calls: z
      .object({ answered: int('Model calls answered.'), failed: int('Model calls that failed for good.') })
      .strict()
      .nullable()
      .describe("The agent's model calls (an agent behind a model endpoint only; null otherwise)."),
    messages: z.array(MessageSchema).describe('The conversation, in order, redacted: what the agent, the customer and the tools said.'),
  })
  .strict()
  .describe('One row per recorded episode.');
export type DatasetEpisode = z.infer<typeof DatasetEpisodeSchema>;

/** One row of `tasks`: a task or hand-off variant as the runs drew it. */
export const DatasetTaskSchema = z
  .object({
    domain: text('The domain.'),
    task_version: text("The version of the domain's task files."),
    source: text("Where the domain's data came from (for tau2-bench, its pinned commit)."),
    task_id: text('The source task, in its domain: `episodes.task_id`.'),
    variant_id: maybeText('The hand-off variant (null for a plain task): `episodes.variant_id`.'),
    kind: text("The variant's kind, or `task` for a plain task."),
    split: text("The split the runs drew it under; also this row's split."),
    run_ids: texts('The runs that drew it (`runs.run_id`), in the order they were given.'),
    reward_basis: texts(
      'The reward components the evaluator scores (`DB`, `COMMUNICATE`, `ACTION`, `NL_ASSERTION`, `ENV_ASSERTION`, `HANDOFF`).',
    ),
    label: LabelSchema,
    user_scenario: z
      .object({
        persona: maybeText("The customer's persona, where the task gives one."),
        instructions: maybeText('The scenario as one text, when the task gives it so (null when it is structured).'),
        domain: maybeText('Structured scenario: the domain, as tau2-bench writes it.'),
        reason_for_call: maybeText('Structured scenario: why the customer calls.'),
        known_info: maybeText('Structured scenario: what the customer knows.'),
        unknown_info: maybeText('Structured scenario: what the customer does not know.'),
        task_instructions: maybeText('Structured scenario: how the customer should act.'),
      })
      .strict()
      .describe("The simulated customer's brief from the source task, as tau2-bench writes it (an LLM customer reads it)."),
    script: z
      .object({
        request: text('The request in plain first person, neutral style.'),
        facts: z
          .array(
            z
              .object({
                key: text('What the fact is (`user_id`, `email`, `order_id`, `code`, …).'),
                value: text('Its value, redacted where it is a secret (a verification code becomes `[otp]`).'),
                asked_by: texts('Lower-case words in an agent message that count as asking for it.'),
                volunteered: flag('Whether the customer says it in the opening message unasked.'),
              })
              .strict(),
          )
          .describe('What the customer knows and gives when asked.'),
        beats: z
          .array(
            z
              .object({
                turn: int('The customer turn at which it is said.'),
                kind: text('What it is (`ask_human`, `reserved_topic`, `drift`, `pressure`, …).'),
                text: text('The line, in neutral style (a style restyles it, keeping every fact).'),
              })
              .strict(),
          )
          .describe('What the customer says at given turns, on top of answering the agent: the twist.'),
        on_transfer: text('What the customer does when offered a transfer: `accept` or `refuse`.'),
        confirms: flag('Whether the customer says yes when asked to confirm a change.'),
        max_turns: int('The customer ends the chat after this many turns at most.'),
      })
      .strict()
      .nullable()
      .describe('The script the scripted customer follows (hand-off variants; null for a plain task).'),
    variant_instruction: maybeText('The twist as an instruction to an LLM customer, on top of the scenario (null for a plain task).'),
    outage_from_turn: maybeInt('Tool failures are injected from this customer turn on (null: no outage).'),
    gold_actions: z
      .array(
        z
          .object({
            action_id: text("The step's id."),
            name: text('The tool.'),
            arguments_json: json('its arguments, redacted.'),
            requestor: text('Who makes the call (`assistant`).'),
            compare_args: z
              .array(z.string())
              .nullable()
              .describe('Which arguments the ACTION check compares (null: all; empty: the name only).'),
          })
          .strict(),
      )
      .nullable()
      .describe("The reference trajectory's tool calls, in order (null where the task file says so)."),
    env_assertions_json: maybeJson('the environment assertions the ENV_ASSERTION check runs (null: none).'),
    communicate_info: texts('What the agent must tell the customer (the COMMUNICATE check).'),
    nl_assertions: texts('Statements an LLM judge checks against the conversation (the NL_ASSERTION check).'),
    needs_judge: flag('Whether scoring the task needs an LLM judge.'),
  })
  .strict()
  .describe('One row per task or hand-off variant the runs drew.');
export type DatasetTask = z.infer<typeof DatasetTaskSchema>;

/** The configurations, in the order the card lists them. */
export const DATASET_CONFIGS = [
  { name: 'episodes', schema: DatasetEpisodeSchema },
  { name: 'tasks', schema: DatasetTaskSchema },
  { name: 'runs', schema: DatasetRunSchema },
] as const;
export type DatasetConfigName = (typeof DATASET_CONFIGS)[number]['name'];
