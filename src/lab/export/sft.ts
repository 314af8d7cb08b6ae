/**
 * `baton export sft`: lab dialogues as supervised fine-tuning data, one JSON object per line,
 * `{"messages", "tools", "metadata"}`, in the chat format with tool calls that Hugging Face
 * `datasets` loads and TRL's `SFTTrainer` renders through a model's chat template.
 *
 * Each dialogue is what the agent saw and did, in the harness's own terms:
 * - `system` is the agent's system prompt exactly as the harness builds it (`buildChatMessages`:
 *   the domain policy and the untrusted-data notice), and every tool result is delimited as the
 *   harness shows it (`<tool_output name="…">…</tool_output>`), so that training and inference see
 *   the same text;
 * - `tools` are the function tools the agent was offered: the domain's tools and the hand-off tool
 *   (with tau2-bench's `transfer_to_human_agents` alias on its domains), with their JSON Schemas;
 * - a tool call's `arguments` is an object, not a JSON string: the chat templates of most tool
 *   models (Llama 3.1, Qwen, Mistral, …) render it with `tojson`, and TRL's and `transformers`'
 *   tool-calling examples pass dicts. Load the file with `datasets` 4.8 or later, which keeps
 *   objects whose keys differ between rows as they are (its `Json` type); older versions pad every
 *   tool's arguments and schema with the other tools' keys set to null;
 * - the harness's canned greeting (`OPENING_MESSAGE`) is left out: the environment never shows
 *   it, it is not the agent's words, and some templates refuse an assistant turn right after the
 *   system prompt; the dialogue opens with the customer;
 * - an assistant turn of tool calls alone has `content: ""`, never `null`, which breaks several
 *   chat templates;
 * - the customer's last words, to which the agent never answered (its goodbye, the simulator's
 *   `###STOP###`/`###TRANSFER###` markers), are left out: the dialogue ends with the agent's last
 *   action and the results of its calls;
 * - hand-offs that the decider or the harness made appear as the `handoff` call the trajectory
 *   records them as, with the message the customer was shown: the action the agent should take
 *   there.
 *
 * Calls that did not run stay in, with the result the agent saw: an injected outage's error (the
 * dialogue teaches what to do when a service fails), a call the harness refused (a write without
 * the customer's yes, a rule, invalid arguments), and a call dropped because a hand-off ended the
 * turn. Cutting a refused call out would leave the agent's next words (asking for the yes, say)
 * answering something the dialogue no longer shows, so refusals are dealt with per dialogue
 * instead: a write refused for want of the customer's yes or of verification is also a policy
 * violation (`write_without_confirmation`, `write_before_authentication`), which `no-violation`
 * drops. Refused reads (invalid arguments, an unknown tool) stay with the recovery that followed.
 *
 * Filters (all must hold for a dialogue to be kept), each read from the record and its analysis:
 * - `success`: the evaluator scored the episode a success (`evaluation.success === true`);
 * - `no-violation`: `analyseEpisode` finds no policy-rule violation;
 * - `correct-handoff`: handed off exactly when the label says so (a true positive or a true
 *   negative, as the metrics classify it) and, when the label names a queue, to that queue.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { QueueId } from '../../core/index.js';
import type { Domain, DomainName } from '../../domains/domain.js';
import { loadDomain } from '../../domains/load-domain.js';
import { OPENING_MESSAGE, type TrajectoryMessage } from '../../domains/trajectory.js';
import { toOpenAiTools } from '../../llm/openai-wire.js';
import type { AgentConfig } from '../../runtime/agent-config.js';
import { buildChatMessages } from '../../runtime/chat-context.js';
import { handoffToolSpecs, TAU2_TRANSFER_TOOL, type HandoffGraph } from '../../runtime/handoff-tool.js';
import { toolSpec } from '../../runtime/tool.js';
import { VIOLATION_RULES, type EpisodeAnalysis, type HandoffClass, type ViolationRule } from '../../analysis/episode-analysis.js';
import type { EpisodeRecord } from '../records.js';
import { loadRuns } from '../report/load.js';
import { agentDomainTools, LAB_AGENT } from '../run-episode.js';

/** A tool call as chat templates read it: `arguments` is an object (see the module's comment). */
export interface SftToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: Record<string, unknown> };
}

/** One message of an exported dialogue. */
export type SftMessage =
  | { role: 'system' | 'user'; content: string }
  /** `content` is `""` on a turn of tool calls alone: `null` breaks several chat templates (GPT-OSS, Phi-3), `""` renders everywhere. */
  | { role: 'assistant'; content: string; tool_calls?: SftToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

/** What a dialogue was and how it went: for selecting, weighting and auditing training data. */
export interface SftMetadata {
  /** The run folder, as it was named to the export. */
  run_dir: string;
  key: string;
  domain: string;
  task_id: string;
  variant_id: string | null;
  /** The hand-off variant's kind, or `task` for a plain task. */
  kind: string;
  split: string;
  style: string;
  trial: number;
  agent: string;
  /** Null when the episode was not scored. */
  success: boolean | null;
  reward: number | null;
  handed_off: boolean;
  /** Where the hand-off went (null without one). */
  target: string | null;
  should_transfer: boolean;
  expected_target: string | null;
  handoff_class: HandoffClass;
  /** The policy-rule violations: how many, and which rules (each once, in `VIOLATION_RULES` order). */
  violations: { count: number; rules: ViolationRule[] };
}

/** One line of the export. */
export interface SftLine {
  messages: SftMessage[];
  tools: ChatCompletionFunctionTool[];
  metadata: SftMetadata;
}

/** The filters, in the order they are reported. */
export const SFT_FILTERS = ['success', 'no-violation', 'correct-handoff'] as const;
export type SftFilter = (typeof SFT_FILTERS)[number];

const KEEPS: Record<SftFilter, (record: EpisodeRecord, analysis: EpisodeAnalysis) => boolean> = {
  success: (record) => record.evaluation.success === true,
  'no-violation': (_, analysis) => analysis.violations.length === 0,
  'correct-handoff': (_, analysis) =>
    (analysis.handoff_class === 'tp' || analysis.handoff_class === 'tn') && analysis.wrong_target !== true,
};

/** Reads a comma-separated filter list (blank: none); unknown names are an error that lists the valid ones. */
export function parseSftFilters(list: string): SftFilter[] {
  const names = list
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(SFT_FILTERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`unknown filter ${unknown.join(', ')}; the filters are ${SFT_FILTERS.join(', ')} (comma-separated, all must hold).`);
  }
  return SFT_FILTERS.filter((filter) => names.includes(filter));
}

/** The filters a dialogue fails (none: it is kept). */
export function failedFilters(record: EpisodeRecord, analysis: EpisodeAnalysis, filters: readonly SftFilter[]): SftFilter[] {
  return filters.filter((filter) => !KEEPS[filter](record, analysis));
}

/** What the agent of a lab episode on one domain was given: its system prompt and tools. */
export interface AgentSetting {
  /** The agent as `buildChatMessages` reads it. */
  agent: AgentConfig;
  system: string;
  tools: ChatCompletionFunctionTool[];
}

const settings = new WeakMap<Domain, AgentSetting>();

/**
 * The lab agent's setting on a domain, as `runEpisode` configures it and `runTurn` offers it: the
 * domain's tools except its transfer tool, then the harness's hand-off tools to every queue.
 */
export function agentSetting(domain: Domain): AgentSetting {
  const known = settings.get(domain);
  if (known) return known;
  const graph: HandoffGraph = { queues: domain.queues.map((q) => q.id as QueueId), agents: [] };
  const specs = [...agentDomainTools(domain).map(toolSpec), ...handoffToolSpecs(graph, domain.transferTool === TAU2_TRANSFER_TOOL)];
  // The prompt reads only the instructions; the rest is there to make it a whole agent configuration.
  const agent: AgentConfig = {
    id: LAB_AGENT,
    instructions: domain.policy,
    tools: [],
    handoff: graph,
    defaultQueue: graph.queues[0] as QueueId,
  };
  const [system] = buildChatMessages(agent, [], []);
  if (system?.role !== 'system') throw new Error('buildChatMessages must open with the system prompt');
  const setting: AgentSetting = { agent, system: system.content, tools: toOpenAiTools(specs) };
  settings.set(domain, setting);
  return setting;
}

/** A tool result as the harness showed it to the model (no human constraints in the lab). */
function shownOutput(agent: AgentConfig, name: string, output: string): string {
  // A one-call transcript comes back as the system prompt, the call, and its result.
  const [, , shown] = buildChatMessages(agent, [], [{ role: 'tool', name, arguments: {}, ok: true, output }]);
  if (shown?.role !== 'tool') throw new Error('buildChatMessages must show a tool result after its call');
  return shown.content;
}

/** The dialogue of one episode as the agent saw it, from the system prompt to its last action. */
export function toSftMessages(record: EpisodeRecord, setting: AgentSetting): SftMessage[] {
  const names = new Map<string, string>();
  const messages: SftMessage[] = [{ role: 'system', content: setting.system }];
  // The harness's canned greeting is not the agent's words, the environment never shows it, and
  // some templates refuse a dialogue whose first turn after the system prompt is the assistant's.
  const first = record.messages[0];
  const greeting = first?.role === 'assistant' && first.toolCalls.length === 0 && first.content === OPENING_MESSAGE ? 1 : 0;
  for (const m of record.messages.slice(greeting)) messages.push(toSftMessage(record, m, names, setting.agent));
  while (messages.at(-1)?.role === 'user') messages.pop();
  return messages;
}

function toSftMessage(record: EpisodeRecord, m: TrajectoryMessage, names: Map<string, string>, agent: AgentConfig): SftMessage {
  if (m.role === 'tool') {
    const name = names.get(m.id);
    if (name === undefined) throw new Error(`${record.key}: the tool result ${m.id} answers no call before it`);
    return { role: 'tool', tool_call_id: m.id, name, content: shownOutput(agent, name, m.content) };
  }
  if (m.role === 'user') return { role: 'user', content: m.content ?? '' };
  if (m.toolCalls.length === 0) return { role: 'assistant', content: m.content ?? '' };
  for (const call of m.toolCalls) names.set(call.id, call.name);
  const calls = m.toolCalls.map((call): SftToolCall => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return { role: 'assistant', content: m.content ?? '', tool_calls: calls };
}

/** One export line: the dialogue, the agent's tools, and the metadata. */
export function toSftLine(record: EpisodeRecord, analysis: EpisodeAnalysis, setting: AgentSetting, runDir: string): SftLine {
  const rules = VIOLATION_RULES.filter((rule) => analysis.violations.some((v) => v.rule === rule));
  return {
    messages: toSftMessages(record, setting),
    tools: setting.tools,
    metadata: {
      run_dir: runDir,
      key: record.key,
      domain: record.domain,
      task_id: record.task_id,
      variant_id: record.variant_id,
      kind: record.kind,
      split: record.split,
      style: record.style,
      trial: record.trial,
      agent: record.agent,
      success: record.evaluation.success,
      reward: record.evaluation.reward,
      handed_off: analysis.transferred,
      target: analysis.target,
      should_transfer: record.label.should_transfer,
      expected_target: record.label.expected_target,
      handoff_class: analysis.handoff_class,
      violations: { count: analysis.violations.length, rules },
    },
  };
}

export interface ExportSftOptions {
  runDirs: readonly string[];
  /** The JSON Lines file to write (its folder is created). */
  out: string;
  filters: readonly SftFilter[];
  /** tau2-bench's data folder, for runs on its domains. */
  tau2Dir?: string;
}

/** What an export read, kept and dropped. */
export interface ExportSftSummary {
  /** The file written (absolute). */
  path: string;
  runs: number;
  read: number;
  kept: number;
  /** Dialogues each filter rejected; a dialogue that fails several counts under each. */
  droppedBy: Record<SftFilter, number>;
  /**
   * Estimated tokens per kept dialogue (characters of its messages and tools ÷ 4, the usual rule
   * of thumb for English with a BPE tokenizer; count with your tokenizer for exact figures), and a
   * `max_length` that keeps every one: TRL's default of 1024 drops them all.
   */
  tokens: { estimate: 'characters / 4'; p50: number; p95: number; max: number; suggestedMaxLength: number } | null;
}

/** Estimated tokens of one line (see {@link ExportSftSummary.tokens}). */
export const estimatedTokens = (line: { messages: unknown; tools: unknown }): number =>
  Math.ceil((JSON.stringify(line.messages).length + JSON.stringify(line.tools).length) / 4);

function tokenSummary(counts: number[]): ExportSftSummary['tokens'] {
  if (counts.length === 0) return null;
  const sorted = [...counts].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const max = sorted.at(-1)!;
  return { estimate: 'characters / 4', p50: at(0.5), p95: at(0.95), max, suggestedMaxLength: Math.ceil((max * 1.25) / 1024) * 1024 };
}

/** Reads the run folders, keeps the dialogues that pass every filter, and writes them, one per line. */
export async function exportSft(options: ExportSftOptions): Promise<ExportSftSummary> {
  const runs = await loadRuns(options.runDirs, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {});
  const droppedBy = Object.fromEntries(SFT_FILTERS.map((f) => [f, 0])) as Record<SftFilter, number>;
  const lines: string[] = [];
  const tokens: number[] = [];
  let read = 0;
  for (const [i, run] of runs.entries()) {
    // The domain loadRuns analysed the records with (loadDomain keeps one per process).
    const domain = await loadDomain(run.domain as DomainName, options.tau2Dir ? { tau2Dir: options.tau2Dir } : {});
    const setting = agentSetting(domain);
    const runDir = options.runDirs[i] ?? run.dir;
    run.records.forEach((record, j) => {
      const analysis = run.analyses[j] as EpisodeAnalysis;
      read += 1;
      const failed = failedFilters(record, analysis, options.filters);
      for (const filter of failed) droppedBy[filter] += 1;
      if (failed.length > 0) return;
      const line = toSftLine(record, analysis, setting, runDir);
      tokens.push(estimatedTokens(line));
      lines.push(`${JSON.stringify(line)}\n`);
    });
  }
  // Written once everything is read, so a run folder that fails to load leaves no partial file.
  const path = resolve(options.out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.join(''));
  return { path, runs: runs.length, read, kept: lines.length, droppedBy, tokens: tokenSummary(tokens) };
}
