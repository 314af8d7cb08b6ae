/**
 * Writes Baton's own decider corpus, data/decider/own-dev.jsonl and own-holdout.jsonl, from the
 * hand-written fragment lists in scripts/decider-corpus/. Deterministic (fixed seed).
 *
 *   npx tsx scripts/generate-decider-corpus.ts
 *
 * The split is by fragment, not by line: every phrasing (and every paraphrase group) is either
 * in the development part or in the held-out part, so a held-out case never shares its core
 * words with a development case; only the wrappers (greetings, earlier turns, noise such as
 * typos and chat abbreviations) are shared. Provenance: data/decider/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as D from './decider-corpus/dialogue-fragments.js';
import * as R from './decider-corpus/request-fragments.js';
import * as T from './decider-corpus/topic-fragments.js';

type Msg =
  | { role: 'customer' | 'agent'; text: string }
  | { role: 'tool'; name: string; arguments: Record<string, unknown>; ok: boolean; output: string };
interface Case {
  id: string;
  category: string;
  expect: { handoff: boolean; reason: string | null };
  conversation: { domain?: string; policy?: Record<string, unknown>; messages: Msg[] };
}

// mulberry32: a small seeded generator, so the corpus is the same on every run.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(20261201);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
function shuffle<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
/** Splits a fragment list: about two thirds to development, the rest held out. */
function split<T>(xs: readonly T[]): { dev: T[]; holdout: T[] } {
  const s = shuffle(xs);
  const cut = Math.round(s.length * 0.65);
  return { dev: s.slice(0, cut), holdout: s.slice(cut) };
}

// ---- noise: what customers do to words -------------------------------------------------------
const NEIGHBOURS = 'qwertyuiopasdfghjklzxcvbnm';
function typo(word: string): string {
  const i = 1 + Math.floor(random() * (word.length - 2));
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1); // a letter dropped
    case 1:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2); // two letters swapped
    case 2:
      return word.slice(0, i) + word[i] + word.slice(i); // a letter doubled
    default:
      return word.slice(0, i) + pick([...NEIGHBOURS]) + word.slice(i + 1); // a letter replaced
  }
}
const CHAT: ReadonlyArray<[RegExp, string]> = [
  [/\byou\b/gi, 'u'],
  [/\byour\b/gi, 'ur'],
  [/\bplease\b/gi, 'pls'],
  [/\bsomeone\b/gi, 'some1'],
  [/\bare\b/gi, 'r'],
  [/\bwith\b/gi, 'w/'],
  [/\bthanks\b/gi, 'thx'],
  [/\bbecause\b/gi, 'cuz'],
];
type Noise = (s: string) => string;
const NOISES: Record<string, Noise> = {
  none: (s) => s,
  lower: (s) => s.toLowerCase().replace(/[.!?]+$/, ''),
  shout: (s) => s.toUpperCase(),
  typo: (s) => {
    const long = s.split(' ').filter((w) => /^[a-z]{5,}$/i.test(w));
    if (long.length === 0) return s;
    const target = pick(long);
    return s.replace(target, typo(target));
  },
  stretch: (s) => s.replace(/([aeiou])(?=[^aeiou]*$)/i, '$1$1$1'),
  chat: (s) => CHAT.reduce((acc, [re, to]) => acc.replace(re, to), s.toLowerCase()),
  exclaim: (s) => `${s.replace(/[.!?]+$/, '')}!!!`,
};
const NOISE_NAMES = Object.keys(NOISES);

// ---- wrappers: where the phrase sits ----------------------------------------------------------
const OPENERS = [
  'I was charged twice for order 7731.',
  'My parcel W4412 still has not arrived.',
  'Hi, I need help with my bill.',
  'My internet plan renewed without asking me.',
  'I want to change my flight to Boston.',
  'The jacket I ordered is the wrong size.',
];
const AGENT_REPLIES = ['Let me check that for you.', 'I can see your account.', 'Thanks, one moment.', 'I see the charges here.'];
const DOMAINS = [undefined, 'billing', 'airline', 'retail'] as const;

/** Puts the phrase in a conversation: alone, after an exchange, or inside a longer message. */
function wrap(text: string, style: number): { domain?: string; messages: Msg[] } {
  const domain = pick(DOMAINS);
  const base = domain ? { domain } : {};
  switch (style % 3) {
    case 0:
      return { ...base, messages: [{ role: 'customer', text }] };
    case 1:
      return {
        ...base,
        messages: [
          { role: 'customer', text: pick(OPENERS) },
          { role: 'tool', name: 'get_account', arguments: { customer_id: 'cus_1001' }, ok: true, output: '{"status":"active"}' },
          { role: 'agent', text: pick(AGENT_REPLIES) },
          { role: 'customer', text },
        ],
      };
    default:
      return { ...base, messages: [{ role: 'customer', text: `${pick(OPENERS)} ${text.replace(/^./, (c) => c.toUpperCase())}` }] };
  }
}

const cases: { dev: Case[]; holdout: Case[] } = { dev: [], holdout: [] };
let serial = 0;
function add(part: 'dev' | 'holdout', category: string, reason: string | null, conversation: Case['conversation']) {
  serial += 1;
  cases[part].push({
    id: `own-${part}-${String(serial).padStart(5, '0')}`,
    category,
    expect: { handoff: reason !== null, reason },
    conversation,
  });
}

/** Single-message categories: each fragment in `variants` noisy, wrapped forms. */
function singles(category: string, reason: string | null, fragments: readonly string[], variants: number, noises = NOISE_NAMES) {
  const parts = split(fragments);
  for (const part of ['dev', 'holdout'] as const) {
    for (const fragment of parts[part]) {
      for (let v = 0; v < variants; v++) {
        const noisy = NOISES[v === 0 ? 'none' : pick(noises)]!(fragment);
        add(part, category, reason, wrap(noisy, v));
      }
    }
  }
}

singles('direct_request', 'customer_request', R.DIRECT_REQUESTS, 6);
singles('callback_request', 'customer_request', R.CALLBACK_REQUESTS, 8);
singles('indirect_request', 'customer_request', R.INDIRECT_REQUESTS, 7);
singles('formal_complaint', 'policy_topic', T.FORMAL_COMPLAINTS, 8);
singles('legal', 'policy_topic', T.LEGAL_THREATS, 8);
singles('bereavement', 'policy_topic', T.BEREAVEMENTS, 8);
singles('self_harm', 'safety', T.SELF_HARM, 7);
singles('medical_other', 'safety', T.MEDICAL, 10);
singles('danger', 'safety', T.DANGER, 10);
// Negatives: shouting is left out (an all-capital message is frustration, which is fine), the rest as above.
const calm = NOISE_NAMES.filter((n) => n !== 'shout' && n !== 'exclaim');
singles('neg_negated_request', null, R.NEGATED_REQUESTS, 10, calm);
singles('neg_reported_speech', null, R.REPORTED_SPEECH, 12, calm);
singles('neg_hypothetical', null, R.HYPOTHETICALS, 12, calm);
singles('neg_people_in_passing', null, R.PEOPLE_IN_PASSING, 12, calm);
singles('neg_safety_hyperbole', null, T.SAFETY_HYPERBOLE, 8, calm);
singles('neg_topic_mention', null, T.TOPIC_MENTIONS, 10, calm);

// ---- loops: one request in other words ---------------------------------------------------------
const FRUSTRATED = [
  'this is ridiculous',
  'I already asked you this!!',
  'are you even listening?',
  'how many times do I have to say it',
  'this is so frustrating',
];
const groups = split(D.PARAPHRASE_GROUPS);
const answers = split(D.NON_ANSWERS);
for (const part of ['dev', 'holdout'] as const) {
  for (const group of groups[part]) {
    for (let v = 0; v < 24; v++) {
      const [x, y, z] = shuffle(group);
      const say = (s: string) => NOISES[pick(calm)]!(s);
      const turn = (t: string): Msg => ({ role: 'customer', text: t });
      const agent = (): Msg => ({ role: 'agent', text: pick([...answers.dev, ...answers.holdout]) });
      const domain = pick(DOMAINS);
      const base = domain ? { domain } : {};
      add(part, 'loop_paraphrase', 'loop_detected', { ...base, messages: [turn(say(x!)), agent(), turn(say(y!)), agent(), turn(say(z!))] });
      add(part, 'frustration_loop', 'frustration_and_loop', {
        ...base,
        messages: [turn(say(x!)), agent(), turn(`${say(y!)} ${pick(FRUSTRATED)}`)],
      });
      // Two statements with no frustration: under the loop limit.
      add(part, 'neg_restated_once', null, { ...base, messages: [turn(say(x!)), agent(), turn(say(y!))] });
      // Three different requests: no loop, however upset.
      const [p, q] = shuffle(D.DIFFERENT_REQUESTS);
      add(part, 'neg_different_intents', null, { ...base, messages: [turn(say(x!)), agent(), turn(say(p!)), agent(), turn(say(q!))] });
    }
  }
}

// ---- withdrawn requests: asked for a person, then took the agent's help -----------------------
const asks = split(D.FIRST_ASKS);
const alts = split(D.AGENT_ALTERNATIVES);
const takes = split(D.TAKE_AGENT_HELP);
const still = split(D.STILL_WANTS_PERSON);
for (const part of ['dev', 'holdout'] as const) {
  for (let v = 0; v < 60; v++) {
    const ask: Msg = { role: 'customer', text: pick(asks[part]) };
    const alt: Msg = { role: 'agent', text: pick(alts[part]) };
    const domain = pick(DOMAINS);
    const base = domain ? { domain } : {};
    add(part, 'neg_withdrawn_request', null, {
      ...base,
      messages: [ask, alt, { role: 'customer', text: NOISES[pick(calm)]!(pick(takes[part])) }],
    });
    if (v % 2 === 0)
      add(part, 'request_after_wait', 'customer_request', { ...base, messages: [ask, alt, { role: 'customer', text: pick(still[part]) }] });
    if (v % 3 === 0) {
      add(part, 'request_after_withdrawal', 'customer_request', {
        ...base,
        messages: [
          ask,
          alt,
          { role: 'customer', text: pick(takes[part]) },
          { role: 'agent', text: 'I tried, but it did not go through.' },
          { role: 'customer', text: pick(asks[part]) },
        ],
      });
    }
  }
}

// ---- amounts: writes above the limit; reads and writes within it ------------------------------
const WRITE_TOOLS = ['issue_refund', 'apply_credit', 'create_refund', 'process_compensation', 'grant_voucher', 'refund_payment'];
const READ_TOOLS = ['get_refund_quote', 'calculate_fee', 'check_balance', 'lookup_charge', 'estimate_refund', 'find_payments'];
const money = (x: number): unknown => pick([x, x.toFixed(2), `$${x.toFixed(2)}`, `${x.toFixed(2)} USD`, `€${x}`]);
const refundAsk = [
  'I was charged twice for order 7731, can you refund it?',
  'please refund the duplicate charge',
  'I want my money back for the broken kettle',
];
const toolParts = { dev: [WRITE_TOOLS.slice(0, 4), READ_TOOLS.slice(0, 4)], holdout: [WRITE_TOOLS.slice(4), READ_TOOLS.slice(4)] } as const;
for (const part of ['dev', 'holdout'] as const) {
  const [writes, reads] = toolParts[part];
  for (let v = 0; v < 60; v++) {
    const limit = pick([50, 100, 200, 25]);
    const over = Math.round((limit + 0.01 + random() * limit * 3) * 100) / 100;
    const under = Math.round(random() * limit * 100) / 100;
    const ask: Msg = { role: 'customer', text: pick(refundAsk) };
    const call = (name: string, amount: unknown): Msg => ({
      role: 'tool',
      name,
      arguments: { order_id: '7731', amount },
      ok: true,
      output: '{"status":"ok"}',
    });
    const listed = v % 2 === 0 ? { writeTools: [...writes] } : {};
    add(part, 'value_threshold', 'value_threshold', {
      policy: { autonomousLimit: limit, ...listed },
      messages: [ask, call(pick(writes), money(over))],
    });
    add(part, 'neg_read_with_amount', null, {
      policy: { autonomousLimit: limit, ...listed },
      messages: [ask, call(pick(reads), money(over))],
    });
    add(part, 'neg_under_limit', null, {
      policy: { autonomousLimit: limit },
      messages: [ask, call(pick(writes), money(v % 5 === 0 ? limit : under))],
    });
    // billing's own limit (50.00) and refund tool, with no policy on the line.
    const billingOver = Math.round((50.01 + random() * 200) * 100) / 100;
    add(part, 'value_threshold', 'value_threshold', { domain: 'billing', messages: [ask, call('refund_charge', billingOver)] });
    add(part, 'neg_read_with_amount', null, { domain: 'billing', messages: [ask, call('list_charges', billingOver)] });
  }
}

// ---- tool failures ------------------------------------------------------------------------------
const ERRORS = [
  'Error: upstream returned 500',
  'Error: request timed out',
  'Error: connection reset',
  'Error: internal server error',
  'Error: gateway timeout',
];
for (const part of ['dev', 'holdout'] as const) {
  for (let v = 0; v < 40; v++) {
    const fail = (): Msg => ({
      role: 'tool',
      name: pick(['get_order', 'list_charges', 'get_account']),
      arguments: { id: 'x1' },
      ok: false,
      output: pick(ERRORS),
    });
    const ok: Msg = { role: 'tool', name: 'get_order', arguments: { id: 'x1' }, ok: true, output: '{"status":"shipped"}' };
    const ask: Msg = { role: 'customer', text: pick(OPENERS) };
    add(part, 'tool_failures', 'tool_failures', { messages: [ask, fail(), fail(), fail()] });
    add(part, 'neg_recovered_failures', null, { messages: [ask, fail(), fail(), ok, { role: 'agent', text: 'Your order has shipped.' }] });
  }
}

mkdirSync('data/decider', { recursive: true });
for (const part of ['dev', 'holdout'] as const) {
  writeFileSync(`data/decider/own-${part}.jsonl`, cases[part].map((c) => JSON.stringify(c)).join('\n') + '\n');
  process.stdout.write(`own-${part}: ${cases[part].length} cases\n`);
}
