/**
 * Facts pulled out of a customer's free text by pattern, whatever the style they write in (terse,
 * verbose, non-native, low-tech …): e-mail addresses, one-time codes, money amounts, dates, ids and
 * names. Nothing here knows about a task; every pattern is about the shape of the fact.
 */

/** Lower-cases and straightens quotes. */
export const norm = (text: string): string => text.replace(/[\u2018\u2019`]/g, "'").toLowerCase();

// An address as customers write it; a trailing full stop belongs to the sentence, not the address.
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** The e-mail addresses in a text, as spelled, in order (duplicates kept once). */
export function emailsIn(text: string): string[] {
  return [...new Set(text.match(EMAIL) ?? [])];
}

/**
 * One-time codes: six digits, possibly spaced or dashed ("075 651", "0-7-5-6-5-1"); numbers that
 * are part of a money amount, a date, an address or a longer number are not codes.
 */
export function codesIn(text: string): string[] {
  const out: string[] = [];
  const runs = text.replace(EMAIL, ' ').match(/(?<![\d.,$/-])\d(?:[ -]?\d){5,}(?![\d.,/]\d)/g) ?? [];
  for (const run of runs) {
    const digits = run.replace(/[ -]/g, '');
    if (digits.length === 6) out.push(digits);
    // "on 20 May 2025 256732": a longer run may still hold a code as one of its words.
    else for (const word of run.split(' ')) if (word.replace(/-/g, '').length === 6) out.push(word.replace(/-/g, ''));
  }
  return out;
}

/**
 * Money amounts in cents: "29.00", "$29", "29 dollars", "USD 50.01", "50,01 €". A bare whole
 * number counts only with a currency word or sign, so dates, codes and quantities are not amounts.
 */
export function amountsIn(text: string): number[] {
  const out: number[] = [];
  const t = text.replace(EMAIL, ' ');
  const decimal = /(?<![\d.,])(\d{1,6})[.,](\d{2})(?![\d])/g;
  for (const m of t.matchAll(decimal)) out.push(Number(m[1]) * 100 + Number(m[2]));
  const marked = /(?:[$€£]\s?|\b(?:usd|eur|dollars?)\s?)(\d{1,6})(?![\d.,]\d)|(?<![\d.,])(\d{1,6})\s?(?:\$|€|£|usd\b|dollars?\b|bucks\b)/gi;
  for (const m of t.matchAll(marked)) {
    const whole = Number(m[1] ?? m[2]);
    if (!out.includes(whole * 100)) out.push(whole * 100);
  }
  return out;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const pad = (n: number) => String(n).padStart(2, '0');

/** Dates as `MM-DD` (month and day; the year is rarely needed to tell charges apart), in order. */
export function datesIn(text: string): string[] {
  const t = norm(text);
  const out: string[] = [];
  const add = (month: number, day: number) => {
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) out.push(`${pad(month)}-${pad(day)}`);
  };
  for (const m of t.matchAll(/\b\d{4}-(\d{2})-(\d{2})\b/g)) add(Number(m[1]), Number(m[2]));
  for (const m of t.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH}\\b`, 'g'))) {
    add(MONTHS.indexOf((m[2] ?? '').slice(0, 3)) + 1, Number(m[1]));
  }
  for (const m of t.matchAll(new RegExp(`\\b${MONTH}\\.? (\\d{1,2})(?:st|nd|rd|th)?\\b(?!:)`, 'g'))) {
    add(MONTHS.indexOf((m[1] ?? '').slice(0, 3)) + 1, Number(m[2]));
  }
  return [...new Set(out)];
}

/** The last four digits of a card ("card ending in 1539", "ending 1539"). */
export function cardEndingsIn(text: string): string[] {
  return [...norm(text).matchAll(/\b(?:ending(?: in| with)?|last (?:4|four)(?: digits)?(?: are| is)?|card)\s*:?\s*(\d{4})\b/g)].map(
    (m) => m[1] ?? '',
  );
}

/** Ids of a given shape (`/cus_\d+/`), as written, in order, once each. */
export function idsIn(text: string, shape: RegExp): string[] {
  const global = new RegExp(shape.source, shape.flags.includes('g') ? shape.flags : `${shape.flags}g`);
  return [...new Set(text.match(global) ?? [])];
}

const NEGATION = /\b(?:no|not|don't|dont|do not|never|didn't|did not|without|nothing|isn't|wasn't)\b/;

/**
 * Where a pattern first occurs outside the scope of a negation ("I don't want a refund"), or -1.
 * A negation counts when it comes shortly before the match, in the same clause.
 */
export function firstMention(text: string, pattern: RegExp): number {
  const t = norm(text);
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  for (const m of t.matchAll(global)) {
    const before =
      t
        .slice(Math.max(0, m.index - 40), m.index)
        .split(/[.,;!?\n]|\bbut\b/)
        .at(-1) ?? '';
    if (!NEGATION.test(before)) return m.index;
  }
  return -1;
}

/** Whether a pattern occurs in the text outside the scope of a negation. */
export const mentions = (text: string, pattern: RegExp): boolean => firstMention(text, pattern) >= 0;

/** Money in cents as the tools show it: `29.00`. */
export const money = (cents: number): string => `${Math.floor(cents / 100)}.${pad(cents % 100)}`;

/** A tool's decimal money string in cents (`"29.00"` → 2900). */
export const centsOf = (amount: unknown): number => Math.round(Number(amount) * 100);

/**
 * A person's first and last name as introduced ("my name is Mia Li", "I'm mia li", "name: Mia Li"),
 * else (unless `guess` is false) guessed from a capitalised pair of words.
 */
export function namesIn(text: string, options: { guess?: boolean } = {}): Array<{ first: string; last: string }> {
  const out: Array<{ first: string; last: string }> = [];
  const add = (first: string, last: string) => {
    if (NOT_A_NAME.has(first.toLowerCase()) || NOT_A_NAME.has(last.toLowerCase())) return;
    if (!out.some((n) => n.first === first && n.last === last)) out.push({ first, last });
  };
  const intro = /\b(?:my name is|my name's|name is|name:|this is|i am|i'm)\s+([a-z][a-z'-]+)\s+([a-z][a-z'-]+)/gi;
  for (const m of text.matchAll(intro)) add(m[1] ?? '', m[2] ?? '');
  // A capitalised pair ("Mia Li, zip 78750") as a fallback.
  if (out.length === 0 && options.guess !== false) {
    for (const m of text.matchAll(/\b([A-Z][a-z'-]+)\s+([A-Z][a-z'-]+)\b/g)) add(m[1] ?? '', m[2] ?? '');
  }
  return out;
}

// Words that open "I'm …" or a capitalised pair without being a name.
const NOT_A_NAME = new Set(
  (
    'a an the and or but so very really just not no yes here there sorry afraid glad happy looking trying calling writing ' +
    'going still also now in at on from to for of with my your our their his her its this that it is was be fed tired ' +
    'new york san los las salt santa united states north south east west mr mrs ms dr zip code email user order'
  ).split(' '),
);

/** US zip codes (five digits standing alone). */
export const zipsIn = (text: string): string[] => [...new Set(text.replace(EMAIL, ' ').match(/(?<![\d.,$-])\d{5}(?![\d.,-]\d)/g) ?? [])];

/**
 * The intents the customer's messages name, in the order first named (earlier messages first,
 * then earlier in the message); each intent once.
 */
export function intentsInOrder<I extends string>(texts: readonly string[], intents: readonly (readonly [I, RegExp])[]): I[] {
  const found: Array<{ intent: I; message: number; at: number }> = [];
  texts.forEach((text, message) => {
    for (const [intent, re] of intents) {
      const at = firstMention(text, re);
      if (at >= 0 && !found.some((f) => f.intent === intent)) found.push({ intent, message, at });
    }
  });
  return found.sort((a, b) => a.message - b.message || a.at - b.at).map((f) => f.intent);
}
