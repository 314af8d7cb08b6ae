/**
 * Payment card numbers in free text, however they are grouped: "4242424242424242", "4242 4242
 * 4242 4242", "4242-4242-4242-4242", "4242.4242.4242.4242", "4242 / 4242 / 4242 / 4242", or
 * mixed. A run of digit groups is a card when a window of whole groups holds 13–19 digits, passes
 * the Luhn check, and starts like a card of that length (the issuer prefixes below). A label
 * before it ("card number", "tarjeta", "Karte") admits a mistyped number too.
 */

import { redactionMarker, type RedactionCounter } from './redact-fields.js';

type Counter = RedactionCounter;

/** True when `digits` (digits only) passes the Luhn checksum that every payment card number carries. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * True when `digits` starts like a payment card of its length: Visa (4; 13, 16, 19), Mastercard
 * (51–55, 2221–2720), Amex (34, 37; 15), Discover, UnionPay, JCB, Diners, Maestro, Mir, RuPay
 * (2, 3, 5, 6; 14–19), UATP (1; 15). What it rules out are Luhn-valid numbers that are not cards:
 * an IMEI (15 digits from 35…), a USPS or FedEx tracking number (9…), a 13-digit EAN barcode.
 */
export function cardPrefixValid(digits: string): boolean {
  const n = digits.length;
  const first = digits.charAt(0);
  if (n === 13) return first === '4' || first === '5' || first === '6';
  if (n === 15) return /^(?:34|37|1|2131|1800)/.test(digits);
  if (n < 13 || n > 19) return false;
  return /^[2-6]/.test(digits);
}

// A card number was labelled as one even when a digit is mistyped and the checksum fails.
const CARD_LABEL_BEFORE =
  /(?:\b(?:card|cc|pan|credit|debit|visa|mastercard|amex|tarjeta|carte|karte|kreditkarte|carta|cart[aã]o|kaart)(?:[\s_-]*(?:number|num|no\.?|#|nummer|n[uú]mero|num[eé]ro))?|\bn[uú]mero de (?:la )?tarjeta|kartennummer)[\s"':=#-]*(?:is|was|es|est|ist|è|é)?[\s"':=]*$/i;
// A tracking, order or article number is Luhn-valid one time in ten, and a label just before it
// says what it is ("Tracking number 9400…", `"sku": "4006…"`).
const OTHER_NUMBER_BEFORE =
  /(?<![a-z])(?:tracking|parcel|shipment|waybill|consignment|package|imei|serial|sku|ean|upc|gtin|barcode|isbn|invoice|order|reference|ref)(?:[\s_-]*(?:number|num|no\.?|#|id|code))?[\s"':=#-]*(?:is|was)?[\s"':=]*$/i;
// Digit groups joined by blanks or one dash, dot, slash, underscore or middle dot (mixed if need
// be), and not the decimals of an amount (tau2 writes 113.71000000000004). Which groups may form
// a card is decided per window below.
const SEP = String.raw`(?:[^\S\n]{0,3}[-–—./·_][^\S\n]{0,3}|[^\S\n]{1,3})`;
const DIGIT_RUN = new RegExp(String.raw`(?<!\d|\d[.,])\d{3,19}(?:${SEP}\d{1,19}){0,9}(?!\d|[.,]\d)`, 'g');

interface Group {
  digits: string;
  start: number;
  end: number;
  /** The separator before this group ('' for the first). */
  sep: string;
}

/** Options of {@link redactCards}. */
export interface CardOptions {
  /** Whether a number with no card label may be taken for a card (false inside an id field). */
  bare: boolean;
}

/** Replaces every card number in `text` by `[card ••••1234]` and reports each to `count`. */
export function redactCards(text: string, count: Counter, options: CardOptions = { bare: true }): string {
  let out = '';
  let last = 0;
  DIGIT_RUN.lastIndex = 0;
  for (let m = DIGIT_RUN.exec(text); m !== null; m = DIGIT_RUN.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 40), m.index);
    const labelled = CARD_LABEL_BEFORE.test(before);
    if (!labelled && (!options.bare || OTHER_NUMBER_BEFORE.test(before))) continue;
    const replaced = cardsInRun(m[0], labelled, count);
    if (replaced === null) continue;
    out += text.slice(last, m.index) + replaced;
    last = m.index + m[0].length;
  }
  return out + text.slice(last);
}

function groupsOf(run: string): Group[] {
  const groups: Group[] = [];
  let previousEnd = 0;
  for (const g of run.matchAll(/\d+/g)) {
    groups.push({ digits: g[0], start: g.index, end: g.index + g[0].length, sep: run.slice(previousEnd, g.index) });
    previousEnd = g.index + g[0].length;
  }
  return groups;
}

/** The run with its card windows replaced, or null when it holds none. */
function cardsInRun(run: string, labelled: boolean, count: Counter): string | null {
  const groups = groupsOf(run);
  let out = '';
  let last = 0;
  let changed = false;
  // A card starts the run or follows another card in it ("4242 4242 4242 4242 2027" is a card
  // and its expiry): the last sixteen digits of a 22-digit tracking number are no card.
  let from = 0;
  for (let i = 0; i < groups.length; i += 1) {
    if (i !== from) break;
    // The longest window of whole groups from here that is a card.
    for (let j = groups.length - 1; j >= i; j -= 1) {
      const window = groups.slice(i, j + 1);
      const digits = window.map((g) => g.digits).join('');
      if (digits.length < 13 || digits.length > 19) continue;
      // Cards are written in groups of 3 or more, the last one aside ("4222 2222 2222 2"): a
      // date's or a list's 2-digit groups never start or sit inside a card.
      if (window.slice(0, -1).some((g) => g.digits.length < 3)) continue;
      // "113.71000000000004" is an amount; a card written with dots has three groups or more.
      if (window.slice(1).some((g) => /[.,]/.test(g.sep)) && window.length < 3) continue;
      const whole = labelled && i === 0 && j === groups.length - 1;
      if (!whole && !(luhnValid(digits) && cardPrefixValid(digits))) continue;
      const first = groups[i];
      const end = groups[j];
      if (!first || !end) break;
      out += run.slice(last, first.start) + redactionMarker('card', digits.slice(-4));
      last = end.end;
      count('card', run.slice(first.start, end.end));
      changed = true;
      i = j;
      from = j + 1;
      break;
    }
  }
  return changed ? out + run.slice(last) : null;
}
