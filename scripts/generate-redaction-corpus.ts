/**
 * Writes Baton's own redaction corpus, data/redaction/own-dev.jsonl and own-holdout.jsonl:
 * `npx tsx scripts/generate-redaction-corpus.ts`. Every entry is a conversation as `baton packet
 * --jsonl` reads it, the secrets that must not survive and the ordinary strings that must.
 *
 * Everything comes from the hand-written fragment lists below: how people label a secret (in
 * seven languages and with typos), how they write its value (separators, spelled digits), where
 * it turns up (a customer turn, the reply to an agent's question, a tool's arguments or output,
 * an agent's echo), and the ordinary values around it. Values are generated valid (Luhn, mod-97,
 * SSA and HMRC rules) from a fixed seed. The split is by phrasing: each list is cut in two, dev
 * draws from one half and holdout from the other, with different values, so a holdout figure
 * says how redaction does on phrasings it was not tuned on — by the same author, which is why the
 * blind corpus (data/redaction/blind/) is the fairer test.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FRAGMENTS, GREETINGS, KEEP_ONLY, KEEP_SAY, TOOLS } from './redaction-corpus-fragments.js';

type Split = 'dev' | 'holdout';
type Message = Record<string, unknown>;
interface Entry {
  id: string;
  class: string;
  variants: string[];
  conversation: { domain: string; messages: Message[] };
  secrets: string[];
  keep: string[];
}

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
let random = rng(1);
const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
const digits = (n: number) => Array.from({ length: n }, () => String(int(0, 9))).join('');
/** The half of a fragment list that a split draws from. */
const half = <T>(xs: readonly T[], split: Split): T[] => xs.filter((_, i) => (i % 2 === 0) === (split === 'dev'));

// ---- values ---------------------------------------------------------------------------------

function luhnComplete(prefix: string, length: number): string {
  let body = prefix + digits(length - prefix.length - 1);
  for (let d = 0; d <= 9; d += 1) {
    const candidate = body + d;
    let sum = 0;
    for (let i = 0; i < candidate.length; i += 1) {
      let x = Number(candidate[candidate.length - 1 - i]);
      if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
      sum += x;
    }
    if (sum % 10 === 0) return candidate;
  }
  body = '';
  return body;
}
const BRANDS: ReadonlyArray<readonly [string, number, number[]]> = [
  ['4', 16, [4, 4, 4, 4]],
  ['51', 16, [4, 4, 4, 4]],
  ['2221', 16, [4, 4, 4, 4]],
  ['37', 15, [4, 6, 5]],
  ['6011', 16, [4, 4, 4, 4]],
  ['36', 14, [4, 6, 4]],
  ['3528', 16, [4, 4, 4, 4]],
  ['62', 16, [4, 4, 4, 4]],
  ['4', 19, [4, 4, 4, 4, 3]],
];
const CARD_SEPARATORS = ['', ' ', '-', '.', '/', ' / ', '_', ' - ', '  '];
function card(): { value: string; variant: string } {
  const [prefix, length, groups] = pick(BRANDS);
  const number = luhnComplete(prefix, length);
  const sep = pick(CARD_SEPARATORS);
  let at = 0;
  const parts = groups.map((g) => number.slice(at, (at += g)));
  return { value: sep === '' ? number : parts.join(sep), variant: `card/${JSON.stringify(sep)}` };
}

const NUMBER_WORDS: Readonly<Record<string, readonly string[]>> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
  es: ['cero', 'uno', 'dos', 'tres', 'cuatro', 'cinco', 'seis', 'siete', 'ocho', 'nueve'],
  fr: ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'],
  de: ['null', 'eins', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun'],
  it: ['zero', 'uno', 'due', 'tre', 'quattro', 'cinque', 'sei', 'sette', 'otto', 'nove'],
  pt: ['zero', 'um', 'dois', 'três', 'quatro', 'cinco', 'seis', 'sete', 'oito', 'nove'],
  nl: ['nul', 'een', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen'],
};
function spell(value: string, lang: string, joiner: string): string {
  const words = NUMBER_WORDS[lang] ?? NUMBER_WORDS['en'] ?? [];
  return [...value].map((d) => words[Number(d)]).join(joiner);
}
/** A code of `n` digits written one of the ways people write it. */
function code(n: number, lang: string): { value: string; variant: string } {
  const v = String(int(1, 9)) + digits(n - 1);
  const ways: Array<readonly [string, () => string]> = [
    ['plain', () => v],
    ['spaced', () => [...v].join(' ')],
    ['dashed', () => [...v].join('-')],
    ['halves', () => `${v.slice(0, Math.ceil(n / 2))} ${v.slice(Math.ceil(n / 2))}`],
    ['halves-dash', () => `${v.slice(0, Math.ceil(n / 2))}-${v.slice(Math.ceil(n / 2))}`],
    ['spelled', () => spell(v, lang, ' ')],
    ['spelled-commas', () => spell(v, lang, ', ')],
    ['spelled-dashes', () => spell(v, lang, '-')],
  ];
  const [name, make] = pick(ways);
  return { value: make(), variant: `${name}/${lang}` };
}

const WORDS = [
  'sunshine',
  'liverpool',
  'marmalade',
  'dragon',
  'bluefish',
  'chelsea',
  'winter',
  'tiger',
  'maple',
  'orchid',
  'falcon',
  'pepper',
];
function password(): string {
  const w = pick(WORDS);
  const cap = random() < 0.5 ? w[0]?.toUpperCase() + w.slice(1) : w;
  return pick([
    () => `${cap}${int(1, 99)}`,
    () => `${cap}${pick(['!', '#', '$', '_', '?', '@'])}${int(1, 9999)}`,
    () => `${cap.replace(/o/g, '0').replace(/a/g, '@')}${int(10, 99)}`,
    () => `${pick(WORDS)}-${pick(WORDS)}#${int(1, 99)}`,
    () => `${cap}_${int(1, 9)}`,
  ])();
}

const IBAN_SPECS: ReadonlyArray<readonly [string, string]> = [
  ['DE', 'n18'],
  ['GB', 'a4n14'],
  ['FR', 'n10c11n2'],
  ['NL', 'a4n10'],
  ['ES', 'n20'],
  ['IT', 'a1n10c12'],
  ['BE', 'n12'],
  ['AT', 'n16'],
  ['IE', 'a4n14'],
  ['PL', 'n24'],
  ['PT', 'n21'],
  ['SE', 'n20'],
];
function iban(): { value: string; variant: string } {
  const [country, spec] = pick(IBAN_SPECS);
  let bban = '';
  for (const [, kind, count] of spec.matchAll(/([anc])(\d+)/g)) {
    for (let i = 0; i < Number(count); i += 1) {
      bban +=
        kind === 'n'
          ? String(int(0, 9))
          : kind === 'a'
            ? String.fromCharCode(65 + int(0, 25))
            : pick([...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789']);
    }
  }
  const numeric = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of numeric) rem = (rem * 10 + Number(ch)) % 97;
  const full = `${country}${String(98 - rem).padStart(2, '0')}${bban}`;
  const spaced = random() < 0.5;
  return { value: spaced ? full.replace(/(.{4})(?=.)/g, '$1 ') : full, variant: spaced ? 'iban/spaced' : 'iban/compact' };
}

function ssn(): { value: string; variant: string } {
  let area = int(1, 899);
  if (area === 666) area = 667;
  const v = `${String(area).padStart(3, '0')}${String(int(1, 99)).padStart(2, '0')}${String(int(1, 9999)).padStart(4, '0')}`;
  const sep = pick(['-', ' ', '.', '']);
  return { value: sep === '' ? v : `${v.slice(0, 3)}${sep}${v.slice(3, 5)}${sep}${v.slice(5)}`, variant: `ssn/${JSON.stringify(sep)}` };
}

function nino(): { value: string; variant: string } {
  const first = pick([...'ABCEGHJKLMNOPRSTWXYZ']);
  let second = pick([...'ABCEGHJKLMNPRSTWXYZ']);
  if (['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(first + second)) second = 'A';
  const d = digits(6);
  const suffix = pick([...'ABCD']);
  const ways: Array<readonly [string, string]> = [
    ['tight', `${first}${second}${d}${suffix}`],
    ['pairs', `${first}${second} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)} ${suffix}`],
    ['mid', `${first}${second} ${d} ${suffix}`],
  ];
  const [name, value] = pick(ways);
  return { value, variant: `nino/${name}` };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomChars = (n: number, alphabet = B64) => Array.from({ length: n }, () => alphabet[int(0, alphabet.length - 1)]).join('');
function apiKey(): { value: string; variant: string } {
  const hex = '0123456789abcdef';
  const ways: Array<readonly [string, () => string]> = [
    ['stripe', () => `sk_live_${randomChars(24)}`],
    ['aws', () => `AKIA${randomChars(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
    ['github', () => `ghp_${randomChars(36)}`],
    ['openai', () => `sk-${randomChars(32)}`],
    ['uuid', () => `${randomChars(8, hex)}-${randomChars(4, hex)}-${randomChars(4, hex)}-${randomChars(4, hex)}-${randomChars(12, hex)}`],
    ['random40', () => `${randomChars(20)}/${randomChars(19)}`],
    ['jwt', () => `eyJ${randomChars(18)}.eyJ${randomChars(24)}.${randomChars(30)}`],
  ];
  const [name, make] = pick(ways);
  return { value: make(), variant: `key/${name}` };
}

// ---- what must survive ----------------------------------------------------------------------

/** Ordinary values a human taking over needs, each made fresh per entry. */
const KEEP_MAKERS: Readonly<Record<string, () => string>> = {
  order: () => pick([`#W${digits(7)}`, `ord_${digits(4)}`, `ORD-2026-${digits(5)}`, String(int(1000, 9999))]),
  amount: () =>
    pick([`$${int(10, 1999)}.${digits(2)}`, `€${int(10, 999)}.00`, `£${int(10, 999)}.${digits(2)}`, `${int(1, 2)},${digits(3)}.00`]),
  date: () => {
    const m = String(int(1, 12)).padStart(2, '0');
    const d = String(int(1, 28)).padStart(2, '0');
    return pick([`2026-${m}-${d}`, `${m}/${d}/2026`, `${d}.${m}.2026`]);
  },
  tracking: () =>
    pick([
      `1Z${randomChars(6, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789')}${digits(10)}`,
      `9400 ${digits(4)} ${digits(4)} ${digits(4)} ${digits(4)} ${digits(2)}`,
      `${digits(4)} ${digits(4)} ${digits(4)}`,
      `9261${digits(18)}`,
    ]),
  phone: () => pick([`+1 415 555 0${digits(3)}`, `07700 900${digits(3)}`, `+44 20 7946 0${digits(3)}`, `(415) 555-0${digits(3)}`]),
  email: () => pick(['ana.diaz@example.com', 'j.smith@example.org', 'li.wei@example.net', 'sam.o@example.ie']),
  zip: () => pick([String(int(10000, 99999)), `SW1A ${int(1, 9)}AA`]),
  customer: () => `cus_${digits(5)}`,
  reservation: () => randomChars(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'),
  imei: () => luhnComplete('35', 15),
};
function fill(template: string, value: string): { text: string; lang: string } {
  const m = /^\[(\w\w)\] /.exec(template);
  return { text: (m ? template.slice(m[0].length) : template).replace('{v}', value), lang: m?.[1] ?? 'en' };
}

function secretValue(cls: string, lang: string): { value: string; variant: string } {
  switch (cls) {
    case 'card':
      return card();
    case 'cvv':
      return code(3, lang);
    case 'otp':
      return code(pick([6, 6, 6, 4, 8]), lang);
    case 'password':
      return { value: password(), variant: 'password' };
    case 'iban':
      return iban();
    case 'ssn':
      return ssn();
    case 'nino':
      return nino();
    default:
      return apiKey();
  }
}

/** One conversation carrying secrets of `classes`, in places and phrasings from `split`'s halves. */
function entry(id: string, cls: string, classes: readonly string[], split: Split): Entry {
  const messages: Message[] = [{ role: 'customer', text: pick(GREETINGS) }];
  const lookup: Message = { role: 'tool', name: 'lookup_customer', arguments: { email: 'on-file@example.com' }, ok: true, output: '' };
  const secrets: string[] = [];
  const variants: string[] = [];
  const keep: string[] = [];
  const customerId = KEEP_MAKERS['customer']?.() ?? 'cus_1';
  keep.push(customerId);
  lookup['output'] = JSON.stringify({ customer_id: customerId, name: 'Ana Diaz' });
  messages.push(lookup);
  for (const c of classes) {
    const f = FRAGMENTS[c];
    if (!f) continue;
    const place = pick(['say', 'say', 'reply', 'args', 'output'] as const);
    const template = place === 'say' ? pick(half(f.say, split)) : place === 'reply' ? pick(half(f.reply, split))[1] : '{v}';
    const lang = /^\[(\w\w)\] /.exec(template)?.[1] ?? 'en';
    const { value, variant } = secretValue(c, lang);
    secrets.push(value);
    variants.push(`${c}/${place}/${variant}`);
    if (place === 'say') messages.push({ role: 'customer', text: fill(template, value).text });
    else if (place === 'reply') {
      const [question, answer] = pick(half(f.reply, split));
      messages.push({ role: 'agent', text: question }, { role: 'customer', text: answer.replace('{v}', value) });
    } else if (place === 'args') {
      messages.push({
        role: 'tool',
        name: pick(TOOLS),
        arguments: { customer_id: customerId, [pick(half(f.args, split))]: value },
        ok: true,
        output: '{"status": "ok"}',
      });
    } else {
      messages.push({
        role: 'tool',
        name: pick(TOOLS),
        arguments: { customer_id: customerId },
        ok: true,
        output: JSON.stringify({ [pick(half(f.output, split))]: value, customer_id: customerId }),
      });
    }
    if (random() < 0.5) messages.push({ role: 'agent', text: pick(half(f.echo, split)).replace('{v}', value) });
  }
  // Ordinary values around the secrets, in customer turns and in a tool's output.
  const kinds = Object.keys(KEEP_SAY);
  const chosen = [...new Set(Array.from({ length: int(3, 5) }, () => pick(kinds)))];
  const output: Record<string, string> = {};
  for (const k of chosen) {
    const value = KEEP_MAKERS[k]?.() ?? '';
    keep.push(value);
    // Before the secrets or after them, never between an agent's question and its reply.
    const turn = { role: 'customer', text: pick(half(KEEP_SAY[k] ?? [], split)).replace('{k}', value) };
    if (random() < 0.5) messages.splice(random() < 0.5 ? 1 : messages.length, 0, turn);
    else output[`${k === 'order' ? 'order_id' : k === 'tracking' ? 'tracking_number' : k}`] = value;
  }
  if (Object.keys(output).length > 0) {
    messages.push({ role: 'tool', name: 'get_order', arguments: { customer_id: customerId }, ok: true, output: JSON.stringify(output) });
  }
  if (cls === 'keep_only') {
    const line = pick(half(KEEP_ONLY, split));
    messages.push({ role: 'customer', text: line });
    keep.push(line);
  }
  return { id, class: cls, variants, conversation: { domain: 'billing', messages }, secrets, keep: [...new Set(keep)] };
}

function corpus(split: Split, seed: number, perClass: number): Entry[] {
  random = rng(seed);
  const classes = Object.keys(FRAGMENTS);
  const out: Entry[] = [];
  let n = 0;
  const id = () => `own-${split}-${String((n += 1)).padStart(4, '0')}`;
  for (const cls of classes) for (let i = 0; i < perClass; i += 1) out.push(entry(id(), cls, [cls], split));
  for (let i = 0; i < perClass; i += 1) out.push(entry(id(), 'mixed', [pick(classes), pick(classes)], split));
  for (let i = 0; i < Math.ceil(perClass / 2); i += 1) out.push(entry(id(), 'keep_only', [], split));
  return out;
}

const dir = join(import.meta.dirname, '..', 'data', 'redaction');
for (const [split, seed] of [
  ['dev', 20261201],
  ['holdout', 20261202],
] as const) {
  const entries = corpus(split, seed, 40);
  writeFileSync(join(dir, `own-${split}.jsonl`), entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
  console.log(`own-${split}.jsonl: ${entries.length} entries, ${entries.reduce((a, e) => a + e.secrets.length, 0)} secrets`);
}
