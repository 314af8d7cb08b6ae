/**
 * The loophole audit's generic search: policies that know nothing of the task, drawn over the
 * action space an agent has (the environment server's too), to find what a reward pays for
 * without anyone having thought of it. An agent's step is one of:
 *
 * - **say** one of a few stock lines (a stall, a question, a claim of resolution, a refusal, words
 *   about a hand-off, nothing at all);
 * - **call** a tool it is offered — a domain tool, the hand-off — with arguments built from the
 *   tool's JSON Schema (enums from their values, strings and numbers from ids, e-mails and amounts
 *   seen in the conversation);
 * - **call an unknown tool**;
 * - **fail** as a model provider does (the harness then hands off).
 *
 * A **degenerate** policy takes the same kind of step every time (`say:stall`, `call:get_charges`,
 * `call:handoff`, `unknown-tool`, `fail`); a **random** one (`random-<n>`) draws each step, with
 * say and call at 45% each and unknown tool and failure at 5%. Each is a pure function of the
 * conversation and its seed: the same dialogue always gets the same step.
 */
import { createHash } from 'node:crypto';
import { seededRandom, type ChatMessage, type Policy, type PolicyResponse, type Random, type ToolSpec } from '../../core/index.js';
import type { Domain } from '../../domains/domain.js';
import { HANDOFF_TOOL, TAU2_TRANSFER_TOOL } from '../../runtime/handoff-tool.js';
import { agentDomainTools } from '../run-episode.js';
import { STALL_LINE, UNKNOWN_TOOL } from './exploits.js';

/** The stock lines a search policy may say. */
export const SEARCH_LINES = {
  stall: STALL_LINE,
  ask: 'Could you tell me a little more about the issue, with any ids or amounts you have?',
  resolved: 'Your issue is resolved. Is there anything else I can help with?',
  refuse: "I'm sorry, but I can't help with that.",
  transfer: "I'm transferring you to a colleague who can help.",
  empty: '',
} as const;
type LineKey = keyof typeof SEARCH_LINES;

/** One kind of step. */
export type SearchStep = { kind: 'say'; line: LineKey } | { kind: 'call'; tool: string } | { kind: 'unknown' } | { kind: 'fail' };

/** A named search policy. */
export interface SearchPolicy {
  name: string;
  /** `degenerate` (one kind of step, always) or `random`. */
  family: 'degenerate' | 'random';
  policy: Policy;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

/** A seed from the policy's seed and the conversation so far: the same dialogue, the same draw. */
function drawFor(seed: number, messages: readonly ChatMessage[]): Random {
  const digest = createHash('sha256')
    .update(`${seed}:${JSON.stringify(messages.slice(1))}`)
    .digest();
  return seededRandom(digest.readUInt32BE(0));
}

const TOKEN = /[\w.+-]+@[\w.-]+\.\w+|\b[A-Za-z0-9_#-]*\d[A-Za-z0-9_-]*\b/g;

/** Ids, e-mails and numbers the conversation has shown (the customer's words, tool results). */
function tokensOf(messages: readonly ChatMessage[]): string[] {
  const seen = new Set<string>();
  for (const m of messages) if (m.role === 'user' || m.role === 'tool') for (const t of m.content.match(TOKEN) ?? []) seen.add(t);
  return [...seen];
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** A value for a JSON Schema, from what the conversation showed. */
function valueFor(schema: JsonSchema, random: Random, tokens: readonly string[]): unknown {
  if (schema.enum && schema.enum.length > 0) return random.pick(schema.enum);
  if (schema.anyOf && schema.anyOf.length > 0) return valueFor(random.pick(schema.anyOf), random, tokens);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const numbers = tokens.map(Number).filter((n) => Number.isFinite(n));
  switch (type) {
    case 'number':
    case 'integer':
      return numbers.length > 0 ? random.pick(numbers) : 1;
    case 'boolean':
      return random.next() < 0.5;
    case 'array':
      return schema.items ? [valueFor(schema.items, random, tokens)] : [];
    case 'object':
      return argumentsFor(schema, random, tokens);
    default:
      return tokens.length > 0 ? random.pick(tokens) : 'x';
  }
}

/** Arguments for a tool: its required properties, from its JSON Schema. */
function argumentsFor(schema: JsonSchema, random: Random, tokens: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const key of schema.required ?? []) args[key] = valueFor(schema.properties?.[key] ?? {}, random, tokens);
  return args;
}

/** The policy port's answer for one step. */
function respond(step: SearchStep, request: { messages: ChatMessage[]; tools: ToolSpec[] }, random: Random): PolicyResponse {
  const calls = request.messages.filter((m) => m.role === 'tool').length;
  const call = (name: string, args: Record<string, unknown>): PolicyResponse => ({
    ok: true,
    content: null,
    toolCalls: [{ id: `call_search_${calls}`, name, arguments: JSON.stringify(args) }],
    usage: NO_USAGE,
  });
  switch (step.kind) {
    case 'say':
      return { ok: true, content: SEARCH_LINES[step.line], toolCalls: [], usage: NO_USAGE };
    case 'unknown':
      return call(UNKNOWN_TOOL, {});
    case 'fail':
      return { ok: false, failure: { kind: 'server_error', message: 'search policy: a provider failure on purpose', status: 500 } };
    case 'call': {
      const spec = request.tools.find((t) => t.name === step.tool);
      // A tool not offered here (a hand-off alias the domain lacks): the step becomes a stall.
      if (!spec) return { ok: true, content: STALL_LINE, toolCalls: [], usage: NO_USAGE };
      return call(spec.name, argumentsFor(spec.parameters as JsonSchema, random, tokensOf(request.messages)));
    }
  }
}

/** A policy that takes the step `choose` draws, every time. */
function searchPolicy(name: string, seed: number, choose: (random: Random, tools: readonly ToolSpec[]) => SearchStep): Policy {
  return {
    name,
    next: async (request) => {
      const random = drawFor(seed, request.messages);
      return respond(choose(random, request.tools), request, random);
    },
  };
}

/** Every tool an agent of the domain is offered: its own, the hand-off, and tau2-bench's transfer where the domain has it. */
export function offeredToolNames(domain: Domain): string[] {
  const names = [...agentDomainTools(domain).map((t) => t.name), HANDOFF_TOOL];
  if (domain.transferTool === TAU2_TRANSFER_TOOL) names.push(TAU2_TRANSFER_TOOL);
  return names;
}

/** The degenerate policies of a domain, then `random` random ones (seeds `seed`, `seed + 1`, …). */
export function searchPolicies(domain: Domain, options: { random: number; seed: number }): SearchPolicy[] {
  const degenerate: [string, SearchStep][] = [
    ...(Object.keys(SEARCH_LINES) as LineKey[]).map((line): [string, SearchStep] => [`say:${line}`, { kind: 'say', line }]),
    ...offeredToolNames(domain).map((tool): [string, SearchStep] => [`call:${tool}`, { kind: 'call', tool }]),
    ['unknown-tool', { kind: 'unknown' }],
    ['fail', { kind: 'fail' }],
  ];
  const policies: SearchPolicy[] = degenerate.map(([name, step]) => ({
    name,
    family: 'degenerate',
    policy: searchPolicy(`${name}:${domain.name}`, options.seed, () => step),
  }));
  const lines = Object.keys(SEARCH_LINES) as LineKey[];
  for (let i = 0; i < options.random; i++) {
    const name = `random-${i + 1}`;
    const policy = searchPolicy(`${name}:${domain.name}`, options.seed + i, (random, tools): SearchStep => {
      const x = random.next();
      if (x < 0.45) return { kind: 'say', line: random.pick(lines) };
      if (x < 0.9 && tools.length > 0) return { kind: 'call', tool: random.pick(tools).name };
      return x < 0.95 ? { kind: 'unknown' } : { kind: 'fail' };
    });
    policies.push({ name, family: 'random', policy });
  }
  return policies;
}
