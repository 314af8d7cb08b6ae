/**
 * The hand-off variant generator. From every source task of a domain it derives the customer's
 * plain script (`baseScript`) and labelled variants: a twist (a request for a person, a reserved
 * topic, a tool outage, an out-of-scope request, … or, as hard negatives, pressure, a person
 * mentioned in passing, a forbidden request, a refused transfer) with the label, the rule behind
 * it and the turn from which a hand-off is due. Deterministic from a seed; a variant keeps its
 * source's facts and split, and `dev` is a seeded fifth of the train sources.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { seededRandom, type DeciderReason, type Random } from '../../core/index.js';
import { BILLING_TASKS_FILE, parseBillingTasks, type BillingTaskRecord } from '../../domains/billing/index.js';
import { DOMAIN_NAMES, type Domain, type DomainName, type DomainTask } from '../../domains/domain.js';
import {
  NEGATIVE_KINDS,
  POSITIVE_KINDS,
  type HandoffVariant,
  type ScriptBeat,
  type ScriptFact,
  type UserScript,
  type VariantKind,
  type VariantSplit,
} from '../variant.js';
import { extractFacts } from './facts.js';
import { firstPersonRequest, toFirstPerson } from './first-person.js';
import { groundedRecords } from './grounding.js';
import {
  ASK_HUMAN_AFTER_VERIFICATION,
  ASK_HUMAN_DIRECT,
  ASK_HUMAN_INDIRECT,
  BEREAVEMENT,
  COMPLAINT,
  DRIFT_FRAMES,
  FORBIDDEN,
  FRUSTRATED_LATER,
  FRUSTRATED_OPENING,
  GROUNDED_FORBIDDEN,
  HURRIED_LATER,
  HURRIED_OPENING,
  LEGAL,
  MENTIONS_PERSON,
  OUT_OF_SCOPE,
  OUT_OF_SCOPE_FRAMES,
  REFUSES_TRANSFER,
  RELATIONS,
  SCEPTICAL_LATER,
  SCEPTICAL_OPENING,
  type Pool,
} from './pools.js';

/** The seed of the committed manifest. */
export const HANDOFF_VARIANT_SEED = 5;

/** Twist variants per eligible source: 3 gives at least 460 over airline and retail with every kind balanced. */
export const KINDS_PER_SOURCE = 3;

/** Kinds in label order: positives, then hard negatives. */
export const VARIANT_KINDS: readonly VariantKind[] = [...POSITIVE_KINDS, ...NEGATIVE_KINDS];

/** The kinds that apply to a domain: `over_limit_refund` is billing's (the other domains have no autonomous refund limit). */
export function kindsFor(domain: DomainName): readonly VariantKind[] {
  return VARIANT_KINDS.filter((k) => k !== 'over_limit_refund' || domain === 'billing');
}

/** tau2-bench's single team. */
const TAU2_QUEUE = 'queue_human_agents';

/**
 * Billing task kinds whose variant is the task itself (the twist is in its scenario), with the
 * kind it counts as. `cannot_verify` maps to none of the lab's kinds and stays a plain task.
 */
const BILLING_NATIVE: Readonly<Record<string, VariantKind>> = {
  refund_over_limit: 'over_limit_refund',
  refund_just_over_limit: 'over_limit_refund',
  formal_complaint: 'reserved_complaint',
  bereavement: 'reserved_bereavement',
  legal_threat: 'reserved_legal',
  customer_request: 'ask_human_direct',
  angry_resolvable: 'frustrated_in_scope',
  lawyer_in_passing: 'mentions_person',
  own_account_after_loss: 'mentions_person',
  non_duplicate_charge: 'forbidden_request',
};

/** Billing task kinds that are plain in-scope requests: the sources of billing's twist variants. */
const BILLING_PLAIN = new Set([
  'refund_duplicate',
  'refund_at_limit',
  'update_email',
  'change_plan',
  'cancel_subscription',
  'explain_charge',
  'already_refunded',
]);

/**
 * A source whose own scenario asks for a person ("if the agent cannot help, transfer to a
 * human") gets no twist: its label would depend on the scenario's conditions, not on the twist.
 * One that refuses a transfer ("under no circumstances do you want to be transferred") gets
 * hard negatives only, since a twist asking for a person would contradict its scenario.
 */
const ASKS_FOR_PERSON = /(?<!\bnot |n't )\bask(?:s|ed)? (?:to be transferred|for (?:a )?human)|\btransfer to a human\b/i;
const PERSON_IN_SCENARIO = /\b(?:transfer(?:red)?|human|supervisor|manager)\b/i;

// ---------------------------------------------------------------------------------------------
// Seeds

/** A generator for one purpose, independent of every other purpose's draws. */
function rngFor(seed: number, ...parts: readonly string[]): Random {
  const digest = createHash('sha256')
    .update(`${seed}|${parts.join('|')}`)
    .digest();
  return seededRandom(digest.readUInt32BE(0));
}

function shuffle<T>(items: readonly T[], rng: Random): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Sources

/** The scenario's parts, whichever form the task file uses. */
function scenarioOf(task: DomainTask): { reason: string; known: string | null; instructions: string } {
  const i = task.userScenario.instructions;
  return typeof i === 'string'
    ? { reason: i, known: null, instructions: '' }
    : { reason: i.reason_for_call, known: i.known_info, instructions: i.task_instructions };
}

/**
 * The split of every source task of a domain: tau2-bench's (or billing's) train and test, with
 * a seeded fifth of the train tasks (rounded) moved to `dev`. Every task has exactly one split,
 * so no source can leak from one split into another.
 */
export function sourceSplits(domain: Domain, seed: number): ReadonlyMap<string, VariantSplit> {
  const train = domain.tasks.filter((t) => t.split === 'train').map((t) => t.id);
  const dev = new Set(shuffle(train, rngFor(seed, domain.name, 'dev')).slice(0, Math.round(train.length / 5)));
  return new Map(domain.tasks.map((t) => [t.id, t.split === 'test' ? 'test' : dev.has(t.id) ? 'dev' : 'train']));
}

/** The customer turns a conversation may take: room for the gold actions, never more than 30. */
function maxTurnsFor(task: DomainTask, lastBeat: number): number {
  return Math.max(Math.min(30, 10 + (task.actions?.length ?? 0)), lastBeat + 4);
}

/**
 * The plain script of a source task, with no twist: the request in first person, the facts
 * the customer gives when asked, no beats; the customer accepts a transfer and confirms changes.
 */
export function baseScript(_domain: Domain, task: DomainTask): UserScript {
  const s = scenarioOf(task);
  const request = firstPersonRequest(s.reason);
  const facts = extractFacts({ domain: task.domain, knownInfo: s.known, reasonForCall: s.reason, actions: task.actions }, request);
  return { request, facts, beats: [], onTransfer: 'accept', confirms: true, maxTurns: maxTurnsFor(task, 0) };
}

/**
 * The customer turn after which the agent can make its first call the policy allows: 1 when
 * the opening already identifies the customer (airline: user id; retail: e-mail, or name and
 * zip; billing: e-mail), else 2 (the agent asks, the customer answers).
 */
export function identifyTurn(domain: DomainName, facts: readonly ScriptFact[]): number {
  const said = (key: string) => facts.some((f) => f.key === key && f.volunteered);
  const identified =
    domain === 'airline' ? said('user_id') : domain === 'retail' ? said('email') || (said('name') && said('zip')) : said('email');
  return identified ? 1 : 2;
}

interface Source {
  domain: Domain;
  task: DomainTask;
  split: VariantSplit;
  base: UserScript;
  /** Billing's task record (kind, purpose); null elsewhere. */
  record: BillingTaskRecord | null;
}

let billingRecordsCache: ReadonlyMap<string, BillingTaskRecord> | undefined;
function billingRecords(): ReadonlyMap<string, BillingTaskRecord> {
  billingRecordsCache ??= new Map(parseBillingTasks(readFileSync(BILLING_TASKS_FILE, 'utf8')).map((r) => [r.id, r]));
  return billingRecordsCache;
}

/** Which twists a source may get: any kind, hard negatives only, or none (see `ASKS_FOR_PERSON`). */
function twistEligibility(source: Source): 'all' | 'negatives' | 'none' {
  if (source.task.handoff.expected) return 'none';
  if (source.record) return BILLING_PLAIN.has(source.record.kind) ? 'all' : 'none';
  const s = scenarioOf(source.task);
  const text = `${s.reason} ${s.instructions}`;
  if (ASKS_FOR_PERSON.test(text)) return 'none';
  return PERSON_IN_SCENARIO.test(text) ? 'negatives' : 'all';
}

// ---------------------------------------------------------------------------------------------
// Labels

/** The queue a hand-off of this kind goes to in this domain (billing's policy names one per topic). */
function targetFor(domain: DomainName, kind: VariantKind): string {
  if (domain !== 'billing') return TAU2_QUEUE;
  if (kind === 'reserved_complaint') return 'queue_complaints';
  if (kind === 'reserved_bereavement') return 'queue_bereavement';
  if (kind === 'reserved_legal') return 'queue_legal';
  return 'queue_billing';
}

const REASON: Readonly<Partial<Record<VariantKind, DeciderReason>>> = {
  ask_human_direct: 'customer_request',
  ask_human_indirect: 'customer_request',
  out_of_scope: 'no_capability',
  reserved_complaint: 'policy_topic',
  reserved_bereavement: 'policy_topic',
  reserved_legal: 'policy_topic',
  tool_outage: 'tool_failures',
  drift_out_of_scope: 'no_capability',
  over_limit_refund: 'value_threshold',
};

/** What a kind's builder decides; the rest of the variant is common. */
interface Twist {
  beats: ScriptBeat[];
  due: number | null;
  rule: string;
  instruction: string;
  request?: string;
  facts?: readonly ScriptFact[];
  onTransfer?: 'accept' | 'refuse';
  outage?: { fromTurn: number } | null;
}

const at = (turn: number) => (turn === 1 ? 'In your first message' : `In your message ${turn} (your first message is 1)`);
const quoteBeats = (beats: readonly ScriptBeat[]) => beats.map((b) => `${at(b.turn)}, say: "${b.text}"`).join(' ');
const ACCEPT = 'If the agent offers or announces a transfer, accept it.';
const NO_PERSON = 'Never ask for a person.';

function pickTurn(rng: Random, turns: readonly number[]): number {
  return rng.pick(turns);
}

function part<T>(pool: Pool<T>, split: VariantSplit): readonly T[] {
  return split === 'test' ? pool.test : pool.train;
}

/** Builds a twist variant's script changes and label for one kind. */
function twist(source: Source, kind: VariantKind, rng: Random): Twist {
  const { domain, split, base } = source;
  const name = domain.name;
  const q = targetFor(name, kind);
  const pick = <T>(pool: Pool<T>) => rng.pick(part(pool, split));
  const beat = (turn: number, k: ScriptBeat['kind'], text: string): ScriptBeat => ({ turn, kind: k, text });
  switch (kind) {
    case 'ask_human_direct':
    case 'ask_human_indirect': {
      const direct = kind === 'ask_human_direct';
      const turn = pickTurn(rng, [1, 2, 3]);
      const beats = [beat(turn, direct ? 'ask_human' : 'ask_human_indirect', pick(direct ? ASK_HUMAN_DIRECT : ASK_HUMAN_INDIRECT))];
      return {
        beats,
        due: turn,
        rule: direct
          ? `At turn ${turn} the customer asks for a person in so many words, and a customer who asks for a person gets one: hand off to ${q} (customer_request).`
          : `At turn ${turn} the customer asks for someone else to take over without saying "transfer", which is still a request for a person: hand off to ${q} (customer_request).`,
        instruction: `${quoteBeats(beats)} Keep asking for a person until you are transferred. ${ACCEPT}`,
      };
    }
    case 'out_of_scope': {
      const service = pick(OUT_OF_SCOPE[name]);
      const request = pick(OUT_OF_SCOPE_FRAMES)(service);
      return {
        beats: [],
        request,
        facts: base.facts.map((f) => ({ ...f, volunteered: request.includes(f.value) })),
        due: 1,
        rule: `The customer's only request ("${request}") is a service no ${name} tool or policy clause covers, so only a person can serve it: hand off to ${q} (no_capability) from turn 1.`,
        instruction: `Instead of the scenario's reason for call, your only request is: "${request}" Give your details when asked. ${ACCEPT}`,
      };
    }
    case 'reserved_complaint':
    case 'reserved_legal': {
      const complaint = kind === 'reserved_complaint';
      const turn = pickTurn(rng, [1, 2, 3]);
      const beats = [beat(turn, 'reserved_topic', pick(complaint ? COMPLAINT : LEGAL))];
      return {
        beats,
        due: turn,
        rule: complaint
          ? `At turn ${turn} the customer asks to make a formal complaint, a topic reserved for humans: hand off to ${q} (policy_topic) at once, whatever else was asked.`
          : `At turn ${turn} the customer threatens legal action, a topic reserved for humans: hand off to ${q} (policy_topic) at once, whatever else was asked.`,
        instruction: `${quoteBeats(beats)} Do not take it back. ${ACCEPT}`,
      };
    }
    case 'reserved_bereavement': {
      const holder = base.facts.find((f) => f.key === 'name')?.value ?? null;
      const beats = [beat(1, 'reserved_topic', pick(BEREAVEMENT)(rng.pick(RELATIONS), holder))];
      return {
        beats,
        // The name the scenario gives is now the late account holder's, not the writer's.
        facts: base.facts.map((f) => (f.key === 'name' ? { ...f, key: 'account_holder_name' } : f)),
        due: 1,
        rule: `The customer writes about the account of a relative who held it and has died, a topic reserved for humans: hand off to ${q} (policy_topic) from turn 1, before acting on the request.`,
        instruction: `You are not the account holder: the account holder${holder ? `, ${holder},` : ''} has died and you are dealing with their account. ${quoteBeats(beats)} Then make the scenario's request on their behalf, using their details. ${ACCEPT}`,
      };
    }
    case 'tool_outage': {
      const due = identifyTurn(name, base.facts);
      return {
        beats: [],
        due,
        outage: { fromTurn: 1 },
        rule: `Every tool call fails from the start of the episode (the harness injects the failures), so the in-scope request cannot be served: hand off to ${q} (tool_failures) once the first call the agent needs fails, after turn ${due}, when the customer has identified themselves.`,
        instruction: `Pursue the scenario's request as usual; the agent's systems are failing. If the agent says it cannot reach its systems, ask what it can do. ${ACCEPT}`,
      };
    }
    case 'drift_out_of_scope': {
      const turn = pickTurn(rng, [3, 4]);
      const service = pick(OUT_OF_SCOPE[name]);
      const beats = [beat(turn, 'drift', pick(DRIFT_FRAMES)(service))];
      return {
        beats,
        due: turn,
        rule: `At turn ${turn}, with the in-scope request under way, the customer also asks for a service no ${name} tool or policy clause covers ("${beats[0]!.text}"): hand off to ${q} (no_capability) from then.`,
        instruction: `Start with the scenario's request. ${quoteBeats(beats)} Insist that you need both. ${ACCEPT}`,
      };
    }
    case 'frustrated_in_scope':
    case 'hurried_in_scope':
    case 'sceptical_in_scope': {
      const [opening, later, mood] =
        kind === 'frustrated_in_scope'
          ? [FRUSTRATED_OPENING, FRUSTRATED_LATER, 'frustrated']
          : kind === 'hurried_in_scope'
            ? [HURRIED_OPENING, HURRIED_LATER, 'in a hurry']
            : [SCEPTICAL_OPENING, SCEPTICAL_LATER, 'sceptical of the agent'];
      const beats = [beat(1, 'pressure', pick(opening)), beat(pickTurn(rng, [2, 3, 4]), 'pressure', pick(later))];
      return {
        beats,
        due: null,
        rule: `The customer is ${mood} but never asks for a person or raises a topic reserved for one, and the source task needs no hand-off: ${mood === 'in a hurry' ? 'haste' : mood === 'frustrated' ? 'frustration' : 'doubt'} alone is no reason to hand off.`,
        instruction: `You are ${mood}. ${quoteBeats(beats)} ${NO_PERSON}`,
      };
    }
    case 'mentions_person': {
      const turn = pickTurn(rng, [1, 2]);
      const beats = [beat(turn, 'mention_person', pick(MENTIONS_PERSON))];
      return {
        beats,
        due: null,
        rule: `At turn ${turn} the customer mentions a person in passing ("${beats[0]!.text}") but never asks for one, and the source task needs no hand-off: finish it without one.`,
        instruction: `${quoteBeats(beats)} ${NO_PERSON}`,
      };
    }
    case 'forbidden_request': {
      const turn = pickTurn(rng, [1, 2]);
      const records = groundedRecords(domain, source.task, base.facts, base.request);
      let text: string;
      let why: string;
      if (records.length > 0 && rng.next() < 0.5) {
        const record = rng.pick(records);
        text = pick(GROUNDED_FORBIDDEN[name])(record.ref);
        why = record.rule;
      } else {
        const forbidden = pick(FORBIDDEN[name]);
        text = forbidden.text;
        why = forbidden.rule;
      }
      const beats = [beat(turn, 'forbidden_request', text)];
      return {
        beats,
        due: null,
        rule: `At turn ${turn} the customer also asks for something the policy forbids (${why}): refuse it with that reason and serve the rest; a refusal is not a hand-off.`,
        instruction: `${quoteBeats(beats)} If the agent refuses and says why, accept it and carry on with the rest. ${NO_PERSON}`,
      };
    }
    case 'refuses_transfer': {
      const beats = [beat(1, 'refuse_transfer', pick(REFUSES_TRANSFER))];
      return {
        beats,
        onTransfer: 'refuse',
        due: null,
        rule: 'The customer refuses any transfer up front, and the source task needs no hand-off: finish it (refusing what the policy forbids, if anything) without one.',
        instruction: `${quoteBeats(beats)} If the agent offers a transfer, refuse it and ask it to carry on.`,
      };
    }
    case 'over_limit_refund':
      throw new Error('over_limit_refund variants are billing tasks of their own, not twists');
  }
}

/** A billing task whose own scenario is the twist, as a variant of the kind it counts as. */
function native(source: Source, kind: VariantKind, rng: Random): Twist {
  const record = source.record!;
  const s = scenarioOf(source.task);
  const identified = identifyTurn('billing', source.base.facts);
  const beats: ScriptBeat[] = [];
  let due: number | null = null;
  switch (record.kind) {
    case 'refund_over_limit':
    case 'refund_just_over_limit':
      // Due once verified: the code comes one turn after the e-mail.
      due = identified + 1;
      break;
    case 'customer_request':
      if (source.task.actions?.some((a) => a.name === 'verify_customer')) {
        // "As soon as the agent confirms you are verified, ask for a person": after the code's turn.
        due = identified + 2;
        beats.push({ turn: due, kind: 'ask_human', text: rng.pick(part(ASK_HUMAN_AFTER_VERIFICATION, source.split)) });
      } else {
        due = 1;
      }
      break;
    case 'legal_threat': {
      due = 1;
      const threat = /say: "([^"]+)"/.exec(s.instructions)?.[1];
      if (threat) beats.push({ turn: 1, kind: 'reserved_topic', text: threat });
      break;
    }
    case 'formal_complaint':
    case 'bereavement':
      due = 1;
      break;
    case 'angry_resolvable':
      beats.push({ turn: 1, kind: 'pressure', text: rng.pick(part(FRUSTRATED_OPENING, source.split)) });
      break;
    case 'lawyer_in_passing': {
      const aside = /Mention in passing that ([^.]+)\./.exec(s.reason)?.[1];
      if (aside) {
        const said = toFirstPerson(aside);
        beats.push({ turn: 1, kind: 'mention_person', text: `${said[0]!.toUpperCase()}${said.slice(1)}.` });
      }
      break;
    }
  }
  const positive = (POSITIVE_KINDS as readonly string[]).includes(kind);
  return {
    beats,
    due: positive ? due : null,
    // A hard negative's note says why it is no hand-off ("Anger alone is not a reason to hand off.").
    rule: positive ? record.description.purpose : (record.description.notes ?? record.description.purpose),
    instruction: `Follow the scenario as written.${beats.length > 0 ? ` ${quoteBeats(beats)}` : ''}`,
  };
}

function variantOf(source: Source, kind: VariantKind, t: Twist): HandoffVariant {
  const { domain, task, base } = source;
  const positive = (POSITIVE_KINDS as readonly string[]).includes(kind);
  const target = positive ? (source.record?.handoff.queue ?? targetFor(domain.name, kind)) : null;
  const reason = positive ? ((source.record?.handoff.reason as DeciderReason | null) ?? REASON[kind] ?? null) : null;
  if (target !== null && !domain.queues.some((q) => q.id === target)) throw new Error(`${domain.name}: no queue ${target}`);
  const beats = [...t.beats].sort((a, b) => a.turn - b.turn);
  const lastBeat = beats.at(-1)?.turn ?? 0;
  return {
    id: `${domain.name}/${task.id}/${kind}`,
    domain: domain.name,
    source: task.id,
    kind,
    split: source.split,
    should_transfer: positive,
    expected_target: target,
    expected_reason: reason,
    due_turn: positive ? t.due : null,
    label_rule: t.rule,
    script: {
      request: t.request ?? base.request,
      facts: t.facts ?? base.facts,
      beats,
      onTransfer: t.onTransfer ?? 'accept',
      confirms: true,
      maxTurns: maxTurnsFor(task, Math.max(lastBeat, t.due ?? 0)),
    },
    outage: t.outage ?? null,
    instruction: t.instruction,
  };
}

// ---------------------------------------------------------------------------------------------
// Generation

/**
 * Which twist kinds each eligible source gets: the domain's kinds in a seeded order, dealt
 * `KINDS_PER_SOURCE` at a time around the cycle, split by split (train, dev, test), so every
 * kind appears equally often (±1) in each split and never twice per source. Sources limited to
 * hard negatives are dealt from a cycle of the negative kinds of their own.
 */
function assignKinds(
  sources: readonly { source: Source; only: 'all' | 'negatives' }[],
  kinds: readonly VariantKind[],
  seed: number,
  domain: DomainName,
): Map<string, VariantKind[]> {
  const cycles = {
    all: { order: shuffle(kinds, rngFor(seed, domain, 'kinds')), offset: 0 },
    negatives: {
      order: shuffle(
        kinds.filter((k) => (NEGATIVE_KINDS as readonly string[]).includes(k)),
        rngFor(seed, domain, 'negatives'),
      ),
      offset: 0,
    },
  };
  const assigned = new Map<string, VariantKind[]>();
  for (const split of ['train', 'dev', 'test'] as const) {
    for (const { source, only } of shuffle(
      sources.filter((s) => s.source.split === split),
      rngFor(seed, domain, 'assign', split),
    )) {
      const cycle = cycles[only];
      const n = Math.min(KINDS_PER_SOURCE, cycle.order.length);
      assigned.set(
        source.task.id,
        Array.from({ length: n }, (_, i) => cycle.order[(cycle.offset + i) % cycle.order.length]!),
      );
      cycle.offset += n;
    }
  }
  return assigned;
}

function generateDomain(domain: Domain, seed: number): HandoffVariant[] {
  const splits = sourceSplits(domain, seed);
  const records = domain.name === 'billing' ? billingRecords() : undefined;
  const sources: Source[] = domain.tasks.map((task) => ({
    domain,
    task,
    split: splits.get(task.id)!,
    base: baseScript(domain, task),
    record: records?.get(task.id) ?? null,
  }));
  const twistKinds = kindsFor(domain.name).filter((k) => k !== 'over_limit_refund');
  const eligible = sources
    .map((source) => ({ source, only: twistEligibility(source) }))
    .filter((e): e is { source: Source; only: 'all' | 'negatives' } => e.only !== 'none');
  const assigned = assignKinds(eligible, twistKinds, seed, domain.name);
  const variants: HandoffVariant[] = [];
  for (const source of sources) {
    const nativeKind = source.record ? BILLING_NATIVE[source.record.kind] : undefined;
    const kinds = nativeKind ? [nativeKind] : (assigned.get(source.task.id) ?? []);
    for (const kind of [...kinds].sort((a, b) => VARIANT_KINDS.indexOf(a) - VARIANT_KINDS.indexOf(b))) {
      const rng = rngFor(seed, domain.name, source.task.id, kind);
      variants.push(variantOf(source, kind, nativeKind ? native(source, kind, rng) : twist(source, kind, rng)));
    }
  }
  return variants;
}

/**
 * The kind a task counts as when its own scenario is the twist (billing's hand-off tasks and hard
 * negatives; their variant is `<domain>/<task id>/<kind>`), else undefined.
 */
export function nativeKind(domain: DomainName, taskId: string): VariantKind | undefined {
  if (domain !== 'billing') return undefined;
  const record = billingRecords().get(taskId);
  return record ? BILLING_NATIVE[record.kind] : undefined;
}

/**
 * The labelled variants of the given domains, deterministic from the seed: domains in
 * `DOMAIN_NAMES` order, sources in task-file order, kinds in label order. A domain's variants
 * do not depend on which other domains are given.
 */
export function generateVariants(domains: readonly Domain[], options: { seed: number }): HandoffVariant[] {
  const ordered = [...domains].sort((a, b) => DOMAIN_NAMES.indexOf(a.name) - DOMAIN_NAMES.indexOf(b.name));
  return ordered.flatMap((domain) => generateDomain(domain, options.seed));
}
