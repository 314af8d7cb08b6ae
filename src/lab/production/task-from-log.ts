/**
 * A reviewed conversation's log → a production task (`production-task.ts`), or the reason it
 * cannot be one. Pure: the caller reads the log (`from-conversation.ts`). Expected refusals are
 * values, not throws: no verdict, a domain the log does not name, a secret that survived
 * redaction, a verdict that points at nothing the agent read.
 *
 * The rules, in order:
 * - **Which verdict**: a supervisor's outranks an owner's; among the same rank, the latest in the
 *   log. The others are counted in `source.other_reviews`, never mixed in.
 * - **Which turns**: the customer messages the agent read — before the reviewed hand-off (a
 *   hand-off review), or before a person first had the conversation (a kept review: all of them
 *   when nobody did). A reviewed hand-off that came after a person had the conversation is refused:
 *   only the agent's first stretch can be replayed.
 * - **The label**: `should_transfer` is `needed`; the due turn is the verdict's `dueAt` as a
 *   customer turn (1 = the first message), else for a needed hand-off the turn it answered, else
 *   none. The reason is the reviewer's when it is one of the decider's, else the agent's own for a
 *   needed hand-off. The queue is the hand-off's, unless the reviewer gave another reason: then,
 *   as for a missed hand-off, the queue the domain's decider policy sends that reason to (none —
 *   any queue counts — when the policy does not say).
 * - **The domain**: the one whose tools include every tool the agent called and whose queues
 *   include every queue the log names; `domain` must agree with the log when given, and is needed
 *   when the log fits several (a conversation with no tool call).
 * - **Facts**: tool arguments the agent took from the customer's own words (a value that occurs
 *   in one of their messages, never a redaction marker), asked for by the argument's name.
 * - **Secrets**: the turns are the log's, redacted when stored; they are read again, as a
 *   conversation, with core's detectors, and anything those would still hide refuses the task.
 */
import { createHash } from 'node:crypto';
import {
  DECIDER_REASONS,
  isHandoffToolName,
  isRedactionMarker,
  redactText,
  redactTranscript,
  type DeciderReason,
  type StoredEvent,
} from '../../core/index.js';
import { BILLING_QUEUE_IDS, BILLING_TOOLS } from '../../domains/billing/index.js';
import { domainDeciderPolicy, TAU2_HUMAN_QUEUE_ID } from '../../domains/decider-policies.js';
import { DOMAIN_NAMES, type DomainName } from '../../domains/domain.js';
import { AIRLINE_TOOLS } from '../../domains/tau2/airline/index.js';
import { RETAIL_TOOLS } from '../../domains/tau2/retail/index.js';
import { transcriptFromLog } from '../../runtime/transcript-from-log.js';
import { ASKED_BY } from '../variants/facts.js';
import type { ProductionKind, ScriptFact } from '../variant.js';
import { ProductionTaskSchema, PRODUCTION_TASK_VERSION, servedTaskVersion, type ProductionTask } from './production-task.js';

/** Why a conversation cannot become a task. */
export type TaskRefusalCode = 'no_verdict' | 'unknown_domain' | 'secret_found' | 'not_replayable' | 'no_customer_turns';

export type TaskFromLogResult = { ok: true; task: ProductionTask } | { ok: false; code: TaskRefusalCode; message: string };

export interface TaskFromLogOptions {
  /** The domain, when the log does not say (it must agree with the log when it does). */
  domain?: DomainName;
  /** The split (default: a fifth of conversations `dev` by a hash of the id, the rest `train`; `test` only when asked). */
  split?: 'train' | 'dev' | 'test';
  /** When the task was made (ISO-8601). */
  now: string;
}

type Review = Extract<StoredEvent, { type: 'review.recorded' }>;

/** The verdict a task is labelled by: a supervisor's over an owner's, the latest of a rank. */
export function chooseVerdict(events: readonly StoredEvent[]): { chosen: Review; others: number } | null {
  const reviews = events.filter((e): e is Review => e.type === 'review.recorded');
  const rank = (r: Review) => (r.data.as === 'supervisor' ? 1 : 0);
  const chosen = reviews.reduce<Review | null>(
    (best, r) => (best === null || rank(r) > rank(best) || (rank(r) === rank(best) && r.seq > best.seq) ? r : best),
    null,
  );
  return chosen ? { chosen, others: reviews.length - 1 } : null;
}

const DOMAIN_TOOLS: Readonly<Record<DomainName, ReadonlySet<string>>> = {
  billing: new Set(BILLING_TOOLS.keys()),
  airline: new Set(AIRLINE_TOOLS.keys()),
  retail: new Set(RETAIL_TOOLS.keys()),
};
const DOMAIN_QUEUES: Readonly<Record<DomainName, ReadonlySet<string>>> = {
  billing: new Set(BILLING_QUEUE_IDS),
  airline: new Set([TAU2_HUMAN_QUEUE_ID]),
  retail: new Set([TAU2_HUMAN_QUEUE_ID]),
};

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** The queues the log names: where hand-offs went and where the conversation waited. */
function queuesOf(events: readonly StoredEvent[]): string[] {
  return unique(
    events.flatMap((e) => {
      if (e.type === 'conversation.queued') return [e.data.queue as string];
      if (e.type === 'handoff.requested' && e.data.owner.type === 'queue') return [e.data.owner.id as string];
      return [];
    }),
  );
}

function domainOf(
  tools: readonly string[],
  queues: readonly string[],
  given: DomainName | undefined,
): { ok: true; domain: DomainName } | { ok: false; message: string } {
  const fits = (d: DomainName) => tools.every((t) => DOMAIN_TOOLS[d].has(t)) && queues.every((q) => DOMAIN_QUEUES[d].has(q));
  const candidates = DOMAIN_NAMES.filter(fits);
  const evidence = `${tools.length > 0 ? `tools ${tools.join(', ')}` : 'no tool call'}${queues.length > 0 ? `; queues ${queues.join(', ')}` : ''}`;
  if (given !== undefined) {
    return candidates.includes(given)
      ? { ok: true, domain: given }
      : { ok: false, message: `the conversation's log is not of the ${given} domain (${evidence})` };
  }
  if (candidates.length === 1) return { ok: true, domain: candidates[0]! };
  if (candidates.length === 0) return { ok: false, message: `the conversation's log fits no domain Baton knows (${evidence})` };
  return {
    ok: false,
    message: `the conversation's log does not say which domain it is of (${evidence}: it fits ${candidates.join(', ')}); name it with --domain`,
  };
}

const isDeciderReason = (reason: string | null): reason is DeciderReason =>
  reason !== null && (DECIDER_REASONS as readonly string[]).includes(reason);

/** The queue a domain's decider sends `reason` to; null when its policy cannot say (a reserved topic with no queue of its own). */
function queueForReason(domain: DomainName, reason: DeciderReason): string | null {
  const policy = domainDeciderPolicy(domain);
  const listed = policy.targets[reason];
  if (listed !== undefined) return listed;
  return reason === 'policy_topic' && Object.keys(policy.topicTargets).length > 0 ? null : policy.defaultTarget;
}

/** A fifth of conversations in `dev`, the rest in `train`, by a hash of the id: stable, and never `test`. */
export function defaultSplit(conversationId: string): 'train' | 'dev' {
  return createHash('sha256').update(conversationId).digest()[0]! < 52 ? 'dev' : 'train';
}

/** Tool arguments the agent took from the customer's words: a value one of their messages contains. */
function factsFrom(events: readonly StoredEvent[], turns: readonly string[]): ScriptFact[] {
  const found: { key: string; value: string }[] = [];
  for (const e of events) {
    if (e.type !== 'tool.called' || isHandoffToolName(e.data.name)) continue;
    for (const [key, raw] of Object.entries(e.data.arguments)) {
      const value = typeof raw === 'number' ? String(raw) : raw;
      if (typeof value !== 'string' || value.length < 3 || isRedactionMarker(value) || value.includes('[')) continue;
      if (!turns.some((t) => t.includes(value)) || found.some((f) => f.value === value)) continue;
      found.push({ key, value });
    }
  }
  const seen = new Map<string, number>();
  return found.map(({ key, value }) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    // The turns already say each fact where the customer said it: none is volunteered again.
    return { key: n === 1 ? key : `${key}_${n}`, value, askedBy: [...(ASKED_BY[key] ?? [key.replace(/_/g, ' ')])], volunteered: false };
  });
}

function kindOf(review: Review['data']): ProductionKind {
  if (review.subject === 'kept') return review.needed ? 'missed_handoff' : 'kept_correctly';
  if (!review.needed) return 'unneeded_handoff';
  return review.timing === 'late' ? 'late_handoff' : 'needed_handoff';
}

const refuse = (code: TaskRefusalCode, message: string): TaskFromLogResult => ({ ok: false, code, message });

/** Builds the task of one conversation from its log (every event, in order). */
export function taskFromLog(events: readonly StoredEvent[], options: TaskFromLogOptions): TaskFromLogResult {
  const created = events.find((e) => e.type === 'conversation.created');
  const id = created?.conversationId ?? events[0]?.conversationId;
  if (id === undefined) return refuse('no_verdict', 'the conversation has no log');
  const verdict = chooseVerdict(events);
  if (!verdict) {
    return refuse('no_verdict', `conversation ${id} has no verdict (review.recorded): review it first (was a person needed?)`);
  }
  const review = verdict.chosen.data;

  // The stretch the agent had: up to the reviewed hand-off, or until a person first had the conversation.
  const departed = events.find(
    (e) => (e.type === 'handoff.requested' && e.data.route !== 'agent') || e.type === 'conversation.claimed' || e.type === 'assist.started',
  );
  let end = departed?.seq ?? Number.POSITIVE_INFINITY;
  let handoff: ProductionTask['source']['handoff'] = null;
  if (review.subject === 'handoff') {
    const reviewed = events.find((e) => e.seq === review.handoff && e.type === 'handoff.requested');
    if (!reviewed || reviewed.type !== 'handoff.requested') {
      return refuse(
        'not_replayable',
        `the verdict at seq ${verdict.chosen.seq} reviews a hand-off at seq ${review.handoff}, which is not one in the log`,
      );
    }
    if (departed && departed.seq < reviewed.seq) {
      return refuse(
        'not_replayable',
        `the reviewed hand-off (seq ${reviewed.seq}) came after a person had the conversation (seq ${departed.seq}): only the agent's first stretch can be replayed`,
      );
    }
    end = reviewed.seq;
    const queued = events.find((e) => e.type === 'conversation.queued' && e.seq > reviewed.seq);
    const queue =
      reviewed.data.owner.type === 'queue' ? reviewed.data.owner.id : queued?.type === 'conversation.queued' ? queued.data.queue : null;
    handoff = { seq: reviewed.seq, reason: reviewed.data.reason, queue };
  }
  const before = events.filter((e) => e.seq < end);
  const received = before.filter((e): e is Extract<StoredEvent, { type: 'message.received' }> => e.type === 'message.received');
  if (received.length === 0)
    return refuse(
      'no_customer_turns',
      `conversation ${id} has no customer message${handoff ? ' before the reviewed hand-off' : departed ? ' before a person took it' : ''}`,
    );
  const turns = received.map((e) => e.data.message.text);

  // Read again as a conversation (a reply to a question is read as its answer): nothing may be left to hide.
  const transcript = transcriptFromLog(before).filter((item) => item.role !== 'tool');
  const redacted = redactTranscript(transcript).items;
  const leaking = transcript.flatMap((item, i) => {
    const after = redacted[i];
    return item.role === 'customer' && after?.role === 'customer' && after.text !== item.text ? [i] : [];
  });
  const noteLeaks = review.note !== null && redactText(review.note).text !== review.note;
  if (leaking.length > 0 || noteLeaks) {
    const where = [
      ...(leaking.length > 0 ? [`${leaking.length} customer message${leaking.length === 1 ? '' : 's'}`] : []),
      ...(noteLeaks ? ["the reviewer's note"] : []),
    ].join(' and ');
    return refuse(
      'secret_found',
      `conversation ${id}: ${where} still hold${leaking.length + (noteLeaks ? 1 : 0) === 1 ? 's' : ''} what the redaction detectors hide (a card, code, password…); no task is made from it`,
    );
  }

  const tools = unique(events.flatMap((e) => (e.type === 'tool.called' && !isHandoffToolName(e.data.name) ? [e.data.name] : [])));
  const domain = domainOf(tools, queuesOf(events), options.domain);
  if (!domain.ok) return refuse('unknown_domain', domain.message);

  let dueTurn: number | null = null;
  if (review.needed && review.dueAt !== null) {
    const at = received.findIndex((e) => e.seq === review.dueAt);
    if (at < 0) {
      return refuse(
        'not_replayable',
        `the verdict says a person was due by the message at seq ${review.dueAt}, which is not a customer message the agent read (seqs ${received.map((e) => e.seq).join(', ')})`,
      );
    }
    dueTurn = at + 1;
  } else if (review.needed && handoff) dueTurn = received.length;

  const kind = kindOf(review);
  const agentReason = handoff && isDeciderReason(handoff.reason) ? handoff.reason : null;
  const reason = !review.needed ? null : isDeciderReason(review.reason) ? review.reason : agentReason;
  let target: string | null = null;
  if (review.needed) {
    if (handoff && (reason === null || reason === agentReason)) target = handoff.queue;
    else if (reason !== null) target = queueForReason(domain.domain, reason);
  }
  const split = options.split ?? defaultSplit(id);
  const who = review.as === 'supervisor' ? 'A supervisor' : 'The person who took it';
  const what =
    review.subject === 'kept'
      ? review.needed
        ? `found that this conversation the agent kept needed a person${dueTurn !== null ? ` from customer turn ${dueTurn}` : ''}`
        : 'found that the agent was right to keep this conversation'
      : review.needed
        ? `found the agent's hand-off (${handoff?.reason}) needed${review.timing === 'late' && dueTurn !== null ? `, but late: due from customer turn ${dueTurn}` : ''}`
        : `found the agent's hand-off (${handoff?.reason}) unneeded`;
  const outcome = review.needed ? `hand off${target ? ` to ${target}` : ''}${reason ? ` (${reason})` : ''}` : 'finish without a hand-off';
  const task = {
    schema_version: PRODUCTION_TASK_VERSION,
    id,
    domain: domain.domain,
    task_version: servedTaskVersion(domain.domain),
    split,
    ...(split === 'test' ? { held_out: true as const } : {}),
    kind,
    should_transfer: review.needed,
    expected_target: target,
    expected_reason: reason,
    due_turn: dueTurn,
    label_rule: `${who} ${what}: ${outcome}.`,
    script: {
      request: turns[0]!,
      facts: factsFrom(before, turns),
      beats: turns.slice(1).map((text, i) => ({ turn: i + 2, kind: 'said' as const, text })),
      onTransfer: 'accept' as const,
      confirms: true,
      maxTurns: turns.length,
      replay: true as const,
    },
    source: {
      conversation: id,
      review: {
        seq: verdict.chosen.seq,
        at: verdict.chosen.at,
        by: review.by,
        as: review.as,
        subject: review.subject,
        needed: review.needed,
        timing: review.subject === 'handoff' ? review.timing : null,
        due_at: review.dueAt,
        reason: review.reason,
        note: review.note,
      },
      other_reviews: verdict.others,
      handoff,
      agent: created?.type === 'conversation.created' ? created.data.conversation.agentId : 'unknown',
      tools,
    },
    created_at: options.now,
  };
  const parsed = ProductionTaskSchema.safeParse(task);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse('not_replayable', `conversation ${id} cannot be a task: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return { ok: true, task: parsed.data };
}
