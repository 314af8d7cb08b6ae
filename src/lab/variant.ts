/**
 * The lab's labelled hand-off tasks. A variant is a source task (tau2-bench airline or retail, or
 * billing) with a twist that decides whether the right outcome is a hand-off: the customer asks
 * for a person, raises a topic reserved for humans, the tools fail, … or, as a hard negative, is
 * frustrated, hurried or sceptical about an in-scope request, mentions people in passing, asks
 * for something the policy forbids, or refuses any transfer. A variant keeps its source's facts
 * and split; it carries the label, the rule behind it, when the hand-off is due, and the script a
 * simulated customer follows.
 */
import type { DeciderReason } from '../core/index.js';
import type { DomainName } from '../domains/domain.js';

/** Variants whose right outcome is a hand-off. */
export const POSITIVE_KINDS = [
  /** The customer asks for a person in so many words. */
  'ask_human_direct',
  /** The customer asks for a person without saying so plainly ("is there someone who can…"). */
  'ask_human_indirect',
  /** The customer wants a service no tool or policy clause covers. */
  'out_of_scope',
  /** Topics reserved for humans. */
  'reserved_complaint',
  'reserved_bereavement',
  'reserved_legal',
  /** The domain's tools fail for the episode (the harness injects the failures). */
  'tool_outage',
  /** An in-scope request, then halfway through a request out of scope. */
  'drift_out_of_scope',
  /** Billing only: a duplicate refund above the autonomous limit. */
  'over_limit_refund',
] as const;

/** Hard negatives: the right outcome is to finish (or refuse) without a hand-off. */
export const NEGATIVE_KINDS = [
  'frustrated_in_scope',
  'hurried_in_scope',
  'sceptical_in_scope',
  /** Mentions people in passing ("my manager asked me to…", "a human at the airport said…"). */
  'mentions_person',
  /** Asks for something the policy forbids: refuse, with the policy's reason; do not transfer. */
  'forbidden_request',
  /** Refuses any transfer up front. */
  'refuses_transfer',
] as const;

/**
 * Tasks made from reviewed production conversations (src/lab/production/): what the person's
 * verdict found. Positives: a kept conversation that needed a person, a hand-off that came late,
 * a hand-off that was needed and on time; negatives: an unneeded hand-off, a conversation rightly kept.
 */
export const PRODUCTION_KINDS = ['missed_handoff', 'late_handoff', 'needed_handoff', 'unneeded_handoff', 'kept_correctly'] as const;

export type PositiveKind = (typeof POSITIVE_KINDS)[number];
export type NegativeKind = (typeof NEGATIVE_KINDS)[number];
export type ProductionKind = (typeof PRODUCTION_KINDS)[number];
export type VariantKind = PositiveKind | NegativeKind;

export type VariantSplit = 'train' | 'dev' | 'test';

/** A fact the customer knows and reveals only when the agent asks for it (or in the opening, if `volunteered`). */
export interface ScriptFact {
  /** What it is: `user_id`, `email`, `name`, `zip`, `order_id`, `reservation_id`, `code`, … */
  key: string;
  /** The exact value (ids, amounts and names are never restyled). */
  value: string;
  /** Lower-case words in an agent message that count as asking for it (`['user id', 'user_id']`). */
  askedBy: readonly string[];
  volunteered: boolean;
}

/** What the customer says at one of their turns, on top of answering the agent. */
export type ScriptBeatKind =
  | 'ask_human'
  | 'ask_human_indirect'
  | 'reserved_topic'
  | 'drift'
  | 'out_of_scope'
  | 'pressure'
  | 'mention_person'
  | 'forbidden_request'
  | 'refuse_transfer'
  /** A customer message as it was written in production (a replay script's turns). */
  | 'said';

export interface ScriptBeat {
  /** The customer turn (1 = the opening message) at which it is said. */
  turn: number;
  kind: ScriptBeatKind;
  /** The line, in neutral style (a style restyles it, keeping every fact). */
  text: string;
}

/** The structured script a scripted customer follows; an LLM customer gets it as instructions. */
export interface UserScript {
  /** The request in plain first person, neutral style, without the facts that wait to be asked for. */
  request: string;
  facts: readonly ScriptFact[];
  beats: readonly ScriptBeat[];
  /** What the customer does when the agent offers or announces a transfer. */
  onTransfer: 'accept' | 'refuse';
  /** Whether the customer says yes when the agent asks to confirm a change. */
  confirms: boolean;
  /** The customer ends the chat (`###STOP###`) after this many of their turns at most. */
  maxTurns: number;
  /**
   * A replay of a production conversation: each turn is exactly the message written then (the
   * request at turn 1, the beat of its turn after), and nothing else — no fact revealed, question
   * answered or confirmation given beyond what the customer wrote. An announced transfer is still
   * accepted, and the customer stops after the last turn.
   */
  replay?: boolean;
}

export interface HandoffVariant {
  /** `<domain>/<source task id>/<kind>`. */
  id: string;
  domain: DomainName;
  /** The source task's id in its domain (its facts and gold actions are the variant's). */
  source: string;
  kind: VariantKind | ProductionKind;
  /** The source's split; `dev` is a seeded fifth of the train source tasks, with all their variants. */
  split: VariantSplit;
  should_transfer: boolean;
  /** The queue a hand-off should go to (null when none is due). */
  expected_target: string | null;
  /** In the decider's vocabulary (null when none is due). */
  expected_reason: DeciderReason | null;
  /** The customer turn (1-based) from which a hand-off is due (null when none is). */
  due_turn: number | null;
  /** One sentence: why this label. */
  label_rule: string;
  script: UserScript;
  /** Tool failures the harness injects for the episode (the data is never edited). */
  outage: { fromTurn: number } | null;
  /**
   * The twist as an instruction to an LLM customer (second person), given on top of the source
   * scenario: what to say at which turn, and how to react to a transfer.
   */
  instruction?: string;
}
