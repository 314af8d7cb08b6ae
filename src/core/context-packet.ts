import { z } from 'zod';
import { packetFacts, type PacketFact } from './packet-facts.js';
import { identifyCustomer, inferToolKind, isHandoffTool, ToolKindSchema } from './packet-tools.js';
import { redactValue } from './redact.js';
import { createConversationRedactor, type ConversationRedactor } from './redact-conversation.js';
import { questionFor } from './redact-reply.js';
import { addRedactionCounts, emptyRedactionCounts, REDACTION_KINDS, type RedactionCounts, type RedactionKind } from './redact-fields.js';
import { HandoffReasonSchema, TranscriptItemSchema, type HandoffReason, type TranscriptItem } from './transcript.js';

/** Version of the stored packet layout; a reader of an older packet branches on it. */
export const CONTEXT_PACKET_SCHEMA_VERSION = 1;

const ScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
const ArgumentsSchema = z.record(z.string(), z.unknown());

/** A scalar read from a successful tool output: which tool said it (`source`), the field path, and when (`at`, the item index). */
export const PacketFactSchema = z.object({
  source: z.string(),
  field: z.string(),
  value: ScalarSchema,
  at: z.number().int().nonnegative(),
});

/** Something the agent did or meant to do: a tool call that succeeded or failed, or one planned but not called, with why. */
export const PacketActionSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('succeeded'), tool: z.string(), kind: ToolKindSchema, arguments: ArgumentsSchema, at: z.number().int() }),
  z.object({
    status: z.literal('failed'),
    tool: z.string(),
    kind: ToolKindSchema,
    arguments: ArgumentsSchema,
    error: z.string(),
    at: z.number().int(),
  }),
  z.object({
    status: z.literal('planned'),
    tool: z.string().nullable(),
    kind: ToolKindSchema,
    arguments: ArgumentsSchema.nullable(),
    why: z.string(),
  }),
]);
/** One entry of the packet's `actions`. */
export type PacketAction = z.infer<typeof PacketActionSchema>;

/**
 * What the human who takes over reads first, so they need not ask the customer again. Built from
 * the tool log, not from the model's account: the only model-written text is `summary`, labelled
 * as such. Everything in it has been redacted; it is what gets stored (`packet.built`).
 */
export const ContextPacketSchema = z.object({
  schemaVersion: z.literal(CONTEXT_PACKET_SCHEMA_VERSION),
  customer: z.object({
    id: z.string().nullable(),
    verified: z.boolean(),
    /** The tool whose success verified the customer (a verification tool, else an identity lookup). */
    verified_by: z.string().nullable(),
  }),
  /** What the customer asked for first (`stated`) and, when it differs, in their last turn (`latest`). */
  intent: z.object({ stated: z.string(), latest: z.string().nullable() }).nullable(),
  handoff: z.object({ reason: HandoffReasonSchema, evidence: z.string().nullable() }).nullable(),
  facts: z.array(PacketFactSchema),
  /** Facts left out by the caps (per call and in all). */
  facts_omitted: z.number().int().nonnegative(),
  actions: z.array(PacketActionSchema),
  open_questions: z.array(z.string()),
  suggested_next_step: z.string(),
  summary: z.object({ text: z.string(), written_by: z.literal('model') }).nullable(),
  transcript_ref: z.string().nullable(),
  /**
   * How many values of each kind were redacted from what the packet was built from. A kind added
   * since a packet was stored (`nino`) reads as 0 there.
   */
  redactions: z.object(
    Object.fromEntries(REDACTION_KINDS.map((kind) => [kind, z.number().int().nonnegative().default(0)])) as Record<
      RedactionKind,
      z.ZodDefault<z.ZodNumber>
    >,
  ),
});
/** The context packet handed to a human. */
export type ContextPacket = z.infer<typeof ContextPacketSchema>;

/** What a packet is built from. `readTools`/`writeTools` override the read/write inference from tool names. */
export const ContextPacketInputSchema = z.object({
  items: z.array(TranscriptItemSchema),
  decision: z.object({ reason: HandoffReasonSchema, evidence: z.string().nullable().optional() }).optional(),
  /** The model's own one-line account; kept, but labelled as model-written. */
  summary: z.string().optional(),
  transcriptRef: z.string().optional(),
  readTools: z.array(z.string()).optional(),
  writeTools: z.array(z.string()).optional(),
  /** Calls the harness refused or held (e.g. awaiting approval), which the tool log cannot show. */
  planned: z.array(z.object({ tool: z.string(), arguments: ArgumentsSchema.optional(), why: z.string() })).optional(),
  /**
   * How the domain authenticates (else inferred from tool names): `lookup` — a successful identity
   * look-up is the authentication (tau2-bench airline and retail), with `identityTools` naming them
   * where their names do not say so (`get_user_details`); `check` — only a verification tool that
   * passed counts (billing's one-time code), so a look-up alone leaves the customer unverified.
   */
  authentication: z.object({ mode: z.enum(['lookup', 'check']), identityTools: z.array(z.string()).optional() }).optional(),
});
/** Input of {@link buildContextPacket}. */
export type ContextPacketInput = z.infer<typeof ContextPacketInputSchema>;

/** At most this many facts in all, after dropping repeats. */
const MAX_FACTS = 60;

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

// "hi", "hello there!", "thanks", "ok": turns that carry no request.
const SMALL_TALK =
  /^(?:(?:hi|hello|hey|hiya|good (?:morning|afternoon|evening)|thanks?(?: you)?|thank you|ok(?:ay)?|yes|no|sure|there|again)\b[\s,.!?]*)+$/i;

/**
 * Builds the context packet for a hand-off. Pure: the same input gives the same packet. The tool
 * log decides who the customer is, whether they are verified, the facts and the actions; the
 * customer's turns give the intent; the decision's reason gives the suggested next step.
 * Everything returned has been redacted, including values seen under sensitive field names
 * anywhere in the log, wherever else they reappear (a code the customer typed, then sent to
 * `verify_otp`).
 */
export function buildContextPacket(input: ContextPacketInput): ContextPacket {
  const counts = emptyRedactionCounts();
  const lists = { read: input.readTools ?? [], write: input.writeTools ?? [] };
  const items = input.items;
  // One redactor for the whole log: a value hidden anywhere (a code the customer typed, then sent
  // to `verify_otp`) is hidden wherever else it appears, before or after.
  const redactor = createConversationRedactor();
  const texts = items.map((_, i) => safeText(items, i, redactor, counts));

  const actions: PacketAction[] = [];
  const facts: PacketFact[] = [];
  let omitted = 0;
  let handoffSummary: string | null = null;
  items.forEach((item, at) => {
    if (item.role !== 'tool') return;
    const parsed = parseJson(item.output);
    const args = redactor.arguments(item.arguments);
    if (isHandoffTool(item.name)) {
      const s = item.arguments['summary'];
      if (typeof s === 'string' && s.trim() !== '') handoffSummary = s;
      return;
    }
    addRedactionCounts(counts, args.counts);
    const kind = inferToolKind(item.name, lists);
    const argsValue = args.arguments;
    if (!item.ok) {
      actions.push({ status: 'failed', tool: item.name, kind, arguments: argsValue, error: oneLine(item.output, 300), at });
      return;
    }
    actions.push({ status: 'succeeded', tool: item.name, kind, arguments: argsValue, at });
    const output = parsed.ok ? redactor.value(parsed.value) : { value: item.output, counts: redactor.text(item.output).counts };
    addRedactionCounts(counts, output.counts);
    const found = packetFacts(item.name, at, output.value, parsed.ok);
    omitted += found.omitted;
    facts.push(...found.facts);
  });
  // Facts seen before (get_user_details twice) are said once; the caps keep the packet readable.
  const seen = new Set<string>();
  const unique = facts.filter((f) => {
    const key = `${f.field}=${JSON.stringify(f.value)}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  omitted += Math.max(0, unique.length - MAX_FACTS);

  const planned = plannedActions(input, actions, lists);
  actions.push(...planned);

  const customerTurns = items.flatMap((item, i) => (item.role === 'customer' ? [texts[i] ?? ''] : []));
  const substantive = customerTurns.filter((t) => t.trim() !== '' && !SMALL_TALK.test(t.trim()));
  const stated = substantive[0];
  const latest = substantive.at(-1);
  const intent =
    stated === undefined
      ? null
      : { stated: oneLine(stated, 300), latest: latest !== undefined && latest !== stated ? oneLine(latest, 300) : null };

  const customer = identifyCustomer(items, input.authentication);
  const reason = input.decision?.reason ?? null;
  const open = openQuestions({ items, texts, customer, actions, reason });
  const summaryText = input.summary ?? handoffSummary;

  const draft: Omit<ContextPacket, 'redactions'> = {
    schemaVersion: CONTEXT_PACKET_SCHEMA_VERSION,
    customer: { id: customer.id, verified: customer.verified, verified_by: customer.verifiedBy },
    intent,
    handoff: reason === null ? null : { reason, evidence: input.decision?.evidence ? oneLine(input.decision.evidence, 300) : null },
    facts: unique.slice(0, MAX_FACTS),
    facts_omitted: omitted,
    actions,
    open_questions: open,
    suggested_next_step: suggestNextStep(reason, { intent: intent?.latest ?? intent?.stated ?? null, customer, actions }),
    summary: summaryText ? { text: oneLine(summaryText, 300), written_by: 'model' } : null,
    transcript_ref: input.transcriptRef ?? null,
  };
  // The last pass: values known to be secret from field names, then every string as text.
  const scrubbed = redactor.scrub(draft);
  addRedactionCounts(counts, scrubbed.counts);
  const final = redactValue(scrubbed.value);
  addRedactionCounts(counts, final.counts);
  // The counts join last: their keys are field names like `cvv` that redaction would hide.
  return ContextPacketSchema.parse({ ...(final.value as object), redactions: { ...counts } });
}

/** A turn's text, redacted; a customer's reply is read as the answer to the agent's turn before it. */
function safeText(items: readonly TranscriptItem[], i: number, redactor: ConversationRedactor, counts: RedactionCounts): string {
  const item = items[i];
  if (!item || item.role === 'tool') return '';
  const answers = questionFor(items, i);
  const redacted = redactor.text(item.text, answers === undefined ? {} : { answers });
  addRedactionCounts(counts, redacted.counts);
  return redacted.text;
}

type JsonParse = { ok: true; value: unknown } | { ok: false };

function parseJson(text: string): JsonParse {
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) as unknown };
  } catch {
    return { ok: false };
  }
}

const TOOL_NAME = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/** Calls that were meant but not made: from the harness, and from a value-threshold decision. */
function plannedActions(
  input: ContextPacketInput,
  done: readonly PacketAction[],
  lists: { read: string[]; write: string[] },
): PacketAction[] {
  const planned: PacketAction[] = (input.planned ?? []).map((p) => ({
    status: 'planned',
    tool: p.tool,
    kind: inferToolKind(p.tool, lists),
    arguments: p.arguments === undefined ? null : (redactValue(p.arguments).value as Record<string, unknown>),
    why: oneLine(p.why, 300),
  }));
  const decision = input.decision;
  if (decision?.reason === 'value_threshold' && planned.length === 0) {
    const evidence = decision.evidence ?? '';
    // The decider names the write it stopped in its evidence; a write that later succeeded was not stopped.
    const named = [...evidence.matchAll(TOOL_NAME)].map((m) => m[0]).find((name) => inferToolKind(name, lists) === 'write');
    const ranAfter = named !== undefined && done.some((a) => a.status === 'succeeded' && a.tool === named);
    if (!ranAfter) {
      planned.push({
        status: 'planned',
        tool: named ?? null,
        kind: 'write',
        arguments: null,
        why: oneLine(`above the agent's autonomous limit${evidence ? `: ${evidence}` : ''}; needs a human's approval`, 300),
      });
    }
  }
  return planned;
}

interface QuestionContext {
  items: readonly TranscriptItem[];
  texts: readonly string[];
  customer: ReturnType<typeof identifyCustomer>;
  actions: readonly PacketAction[];
  reason: HandoffReason | null;
}

/** What the human still has to find out or decide: each line is a question the tool log leaves open. */
function openQuestions({ items, texts, customer, actions, reason }: QuestionContext): string[] {
  const out: string[] = [];
  if (customer.id === null) out.push('Who is the customer? No tool call identified them.');
  if (customer.ids.length > 1) out.push(`Which account is the customer's? The tool log shows several: ${customer.ids.join(', ')}.`);
  if (!customer.verified) {
    const why = customer.failedVerification
      ? `${customer.failedVerification} did not succeed`
      : customer.pendingVerification
        ? `${customer.pendingVerification} was called but no check of the code followed`
        : 'no verification or identity lookup succeeded';
    out.push(`Identity not verified: ${why}. Verify before acting on the account.`);
  }
  const succeeded = new Set(actions.filter((a) => a.status === 'succeeded').map((a) => a.tool));
  for (const a of actions) {
    if (a.status === 'failed' && a.kind === 'write' && !succeeded.has(a.tool)) {
      out.push(`${a.tool} failed ("${oneLine(a.error, 120)}") and did not succeed later: retry, or do it by hand?`);
    }
    if (a.status === 'planned') out.push(`${a.tool ?? 'The requested change'} was not carried out (${a.why}): approve or refuse?`);
  }
  if (reason === 'no_capability') out.push('The agent has no tool for this request: who can handle it?');
  const lastIndex = items.length - 1;
  const last = items[lastIndex];
  if (last?.role === 'customer') out.push(`The customer's last message has no reply yet: "${oneLine(texts[lastIndex] ?? '', 200)}"`);
  return [...new Set(out)].slice(0, 8);
}

interface NextStepContext {
  intent: string | null;
  customer: ReturnType<typeof identifyCustomer>;
  actions: readonly PacketAction[];
}

/** One line for the human, from the hand-off reason first and the state of the conversation after. */
export function suggestNextStep(reason: HandoffReason | null, { intent, customer, actions }: NextStepContext): string {
  const request = intent ? `"${oneLine(intent, 120)}"` : 'their request';
  const verifyFirst = customer.verified ? '' : "Verify the customer's identity, then ";
  const failed = actions.find((a) => a.status === 'failed');
  const plannedTool = actions.find((a) => a.status === 'planned')?.tool;
  const steps: Record<HandoffReason, string> = {
    customer_request: `${verifyFirst || ''}Greet the customer, say you have the context below, and continue with ${request}.`,
    policy_topic: `Acknowledge the customer and follow the policy procedure for this topic (complaint, bereavement or legal) before anything else.`,
    safety: 'Address the safety concern first and follow the safety protocol; the service request waits.',
    no_capability: `${verifyFirst}Handle ${request} by hand or route it to the team that can; the agent has no tool for it.`,
    value_threshold: `${verifyFirst}Review ${plannedTool ?? 'the change'} above the agent's limit and approve or refuse it.`,
    tool_failures: `Check whether ${failed?.status === 'failed' ? failed.tool : 'the failing tool'} is down, then retry it or do the step by hand.`,
    loop_detected: `Restate ${request} in your own words, confirm it with the customer, and resolve it directly.`,
    frustration_and_loop: `Acknowledge the frustration, restate ${request}, and resolve it directly.`,
    step_limit: `${verifyFirst}Pick up ${request} where the agent stopped (it ran out of steps).`,
    budget_exhausted: `${verifyFirst}Pick up ${request} where the agent stopped (its budget ran out).`,
    provider_down: `${verifyFirst}Continue ${request}; the agent's model was unavailable.`,
    guardrail: "Review the agent's last draft (an output check stopped it) and reply to the customer yourself.",
    agent_decision: `${verifyFirst}Continue with ${request}; read the model's summary with care, it is its own account.`,
  };
  if (reason !== null) return steps[reason].replace(/^./, (c) => c.toUpperCase());
  if (!customer.verified) return `Verify the customer's identity, then continue with ${request}.`;
  return `Continue with ${request}.`;
}
