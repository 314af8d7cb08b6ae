/**
 * A domain is what an agent works in: a database, a policy text, tools with exact semantics, the
 * human queues it can hand off to, rules for its high-risk decisions, and tasks with the criteria
 * the evaluator scores. tau2-bench's airline and retail and Baton's own billing domain all have
 * this shape, so one episode, evaluator, oracle and runner serve them all.
 */
import { z } from 'zod';
import type { DecisionRule, DeciderPolicy } from '../core/index.js';
import type { ToolCallResult, ToolKind } from './domain-tool.js';

export const DOMAIN_NAMES = ['airline', 'retail', 'billing'] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];

/** A tool as an agent is offered it: its arguments as a zod schema, plus whether it writes. */
export interface DomainToolInfo {
  name: string;
  kind: ToolKind;
  description: string;
  schema: z.ZodObject;
  /**
   * A write that needs the customer's explicit yes first (default: every write). Billing's
   * `verify_customer` records a verification: the customer gave the code, so no yes is asked.
   */
  needsConfirmation?: boolean;
}

/** A human queue a domain hands conversations to, and the skills of the people who staff it. */
export interface HumanQueue {
  /** A queue id (`queue_…`), the hand-off target. */
  id: string;
  description: string;
  skills: readonly string[];
}

/**
 * One episode's own database: writes change only this episode's copy. Snapshots are immutable
 * and share every untouched record with the domain's initial database (copy-on-write), so an
 * episode costs nothing to start however large the database is.
 */
export interface Episode<Db = unknown> {
  /**
   * The database now: a snapshot that a write replaces. Treat it as read-only: the initial
   * database is frozen throughout, and so is every record a write creates, but the maps of a
   * snapshot after a write are not (freezing a map of thousands of keys costs more than the write).
   */
  readonly db: Db;
  /** Runs a tool as the domain's environment does (`Error: …` outputs for failures). */
  call(name: string, args: Record<string, unknown>): ToolCallResult;
  /** The canonical hash of the database now (tau2-bench's, for every domain). */
  hash(): string;
  /**
   * Changes the database outside any tool, as a policy drift does (a plan's price changes), on a
   * draft, copy-on-write as a write tool's change is.
   */
  apply(change: (draft: Db) => void): void;
}

/**
 * tau2-bench's reward components, plus Baton's `HANDOFF` (used by Baton's own tasks, never by
 * tau2-bench's): 1.0 iff the run handed off exactly when the task's label says it should, to the
 * labelled queue.
 */
export const REWARD_COMPONENTS = ['DB', 'ENV_ASSERTION', 'COMMUNICATE', 'NL_ASSERTION', 'ACTION', 'HANDOFF'] as const;
export type RewardComponent = (typeof REWARD_COMPONENTS)[number];

/** A step of a task's reference trajectory. */
export interface GoldAction {
  actionId: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Who makes the call (`assistant` in every airline, retail and billing task). */
  requestor: 'assistant' | 'user';
  /** Which arguments the ACTION check compares (null: all; `[]`: the name only). */
  compareArgs: readonly string[] | null;
}

/**
 * Whether a task's right outcome is a hand-off, to which queue and why. For tau2-bench tasks it
 * is read from the gold actions (upstream labels neither queue nor reason); Baton's own tasks
 * carry it as data.
 */
export interface HandoffLabel {
  expected: boolean;
  queue: string | null;
  reason: string | null;
  source: 'gold_actions' | 'label';
  /**
   * The customer turn (1-based) from which the hand-off is due, where the label knows it (the
   * lab's variants): a hand-off before it came before anything called for it.
   */
  dueTurn?: number | null;
}

/** The simulated customer's brief, as tau2-bench writes it. */
export interface UserScenario {
  persona: string | null;
  instructions:
    string | { domain: string; reason_for_call: string; known_info: string | null; unknown_info: string | null; task_instructions: string };
}

/** A task as the lab and the evaluator use it, whichever domain it comes from. */
export interface DomainTask {
  domain: DomainName;
  id: string;
  /** The task files' version: `current` or `release-37199f3` for tau2-bench, `v1` for billing. */
  version: string;
  split: 'train' | 'test';
  rewardBasis: readonly RewardComponent[];
  /** Null only where the task file says so (then the DB check passes without comparing). */
  actions: readonly GoldAction[] | null;
  envAssertions: readonly unknown[] | null;
  communicateInfo: readonly string[];
  nlAssertions: readonly string[];
  /** Scoring needs an LLM judge: NL_ASSERTION in the basis and assertions to judge. */
  needsJudge: boolean;
  handoff: HandoffLabel;
  userScenario: UserScenario;
}

export interface Domain<Db = unknown> {
  name: DomainName;
  /** The version of the tasks and scoring rules (see `DomainTask.version`). */
  version: string;
  /** Where the data came from, for every result (e.g. tau2-bench's pinned commit). */
  source: string;
  policy: string;
  tools: readonly DomainToolInfo[];
  /** The tool whose call hands the customer to a human (`transfer_to_human_agents` in tau2-bench). */
  transferTool: string;
  queues: readonly HumanQueue[];
  rules: readonly DecisionRule[];
  /** How the customer is authenticated, for the context packet: a look-up (tau2-bench) or a passed check (billing's code). */
  authentication: { mode: 'lookup' | 'check'; identityTools?: readonly string[] };
  /** What the hand-off decider needs from the policy: the autonomous limit, the queue per reason and topic. */
  deciderPolicy: DeciderPolicy;
  /** The initial database, deeply frozen. */
  initialDb: Db;
  newEpisode(): Episode<Db>;
  /** Whether a tool changes the database (the evaluator replays only these). */
  isWrite(name: string): boolean;
  tasks: readonly DomainTask[];
}

const GoldActionSchema = z.object({
  action_id: z.string(),
  requestor: z.enum(['assistant', 'user']).optional(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  info: z.unknown().optional(),
  compare_args: z.array(z.string()).nullable().optional(),
});

/** The evaluation criteria of a task file, as tau2-bench writes them. */
export const EvaluationCriteriaSchema = z.object({
  actions: z.array(GoldActionSchema).nullable(),
  env_assertions: z.array(z.unknown()).nullable().optional(),
  communicate_info: z.array(z.string()).nullable().optional(),
  nl_assertions: z.array(z.string()).nullable().optional(),
  reward_basis: z.array(z.enum(REWARD_COMPONENTS)).optional(),
});
export type EvaluationCriteria = z.infer<typeof EvaluationCriteriaSchema>;

/** Turns a task file's criteria into the evaluator's terms; the basis defaults to DB and COMMUNICATE, as upstream's does. */
export function criteriaOf(
  criteria: EvaluationCriteria,
): Pick<DomainTask, 'rewardBasis' | 'actions' | 'envAssertions' | 'communicateInfo' | 'nlAssertions' | 'needsJudge'> {
  const rewardBasis = criteria.reward_basis ?? ['DB', 'COMMUNICATE'];
  const nlAssertions = criteria.nl_assertions ?? [];
  return {
    rewardBasis,
    actions:
      criteria.actions?.map((a) => ({
        actionId: a.action_id,
        name: a.name,
        arguments: a.arguments,
        requestor: a.requestor ?? 'assistant',
        compareArgs: a.compare_args ?? null,
      })) ?? null,
    envAssertions: criteria.env_assertions ?? null,
    communicateInfo: criteria.communicate_info ?? [],
    nlAssertions,
    needsJudge: rewardBasis.includes('NL_ASSERTION') && nlAssertions.length > 0,
  };
}
