/**
 * National identity numbers by their format rules: US social security numbers (area 001–899
 * except 666, group 01–99, serial 0001–9999; "123-45-6789", "123 45 6789", "123.45.6789") and UK
 * National Insurance numbers (two prefix letters from HMRC's allowed set, six digits, a suffix
 * A–D; "AB 12 34 56 C", "AB123456C"). With a label before it ("SSN", "National Insurance number",
 * "NI no") a value in the shape is taken even when it breaks a rule, since people type sample or
 * mistyped numbers too.
 */

import { redactionMarker, type RedactionCounter } from './redact-fields.js';

type Counter = RedactionCounter;

/** True when the nine digits of `digits` follow the SSA's rules for an issued SSN. */
export function ssnValid(digits: string): boolean {
  const m = /^(\d{3})(\d{2})(\d{4})$/.exec(digits);
  if (!m) return false;
  const [, area = '', group = '', serial = ''] = m;
  return area !== '000' && area !== '666' && area < '900' && group !== '00' && serial !== '0000';
}

/**
 * True when `candidate` (blanks allowed) is a UK National Insurance number by HMRC's format:
 * neither prefix letter D, F, I, Q, U or V, the second not O, the prefix not BG, GB, KN, NK, NT,
 * TN or ZZ, six digits, and a suffix A–D.
 */
export function ninoValid(candidate: string): boolean {
  const s = candidate.replace(/\s/g, '').toUpperCase();
  return /^(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]$/.test(s);
}

// Dashes, blanks or dots, one kind throughout; not inside a longer run of digits or dashes.
const SSN_SHAPE = /(?<![\d-]|\d[ .])(?<a>\d{3})(?<sep>[-. ])(?<b>\d{2})\k<sep>(?<c>\d{4})(?![\d-]|[ .]\d)/g;
const SSN_LABEL =
  /\b(?:ssn|ss#|social(?:[ -]security)?(?:[ -](?:number|no\.?|#))?|soc\.?[ -]sec\.?(?:[ -]no\.?)?)[\s:#=-]*(?:is|was)?[\s:#="']*$/i;
// Two letters, six digits in pairs or not, an optional suffix letter.
const NINO_SHAPE = /(?<![A-Za-z0-9])[A-Za-z]{2}[^\S\n]?\d{2}[^\S\n]?\d{2}[^\S\n]?\d{2}(?:[^\S\n]?[A-Za-z])?(?![A-Za-z0-9])/g;
const NINO_LABEL =
  /(?:national[ -]insurance(?:[ -](?:number|no\.?|#))?|\bNI[ -]?(?:number|no\.?|#)|\bNINO\b|\bNIN\b)[\s:#=-]*(?:is|was|it's)?[\s:#="']*(?:(?:is|was)[\s:'"]*)?$/i;

// "QQ123456C is my National Insurance number".
const NINO_LABEL_AFTER =
  /^[^\S\n]*(?:is|was|=|:|-)?[^\S\n]*(?:(?:my|the|your|his|her)[^\S\n]+)?(?:national[ -]insurance|NI[ -]?(?:number|no)|NINO\b)/i;

/** Replaces SSNs that need no label (dashed, blank- or dot-separated, and valid by the SSA's rules). */
export function redactSsnShapes(text: string, count: Counter): string {
  return text.replace(SSN_SHAPE, (whole, ...rest: unknown[]) => {
    const groups = rest.at(-1) as Record<string, string>;
    const offset = rest.at(-3) as number;
    const labelled = SSN_LABEL.test(text.slice(Math.max(0, offset - 30), offset));
    const digits = `${groups['a']}${groups['b']}${groups['c']}`;
    // A dashed SSN is distinctive enough; blanks and dots are also how other numbers are grouped.
    if (!labelled && (groups['sep'] !== '-' ? !ssnValid(digits) : digits.startsWith('000'))) return whole;
    count('ssn', whole);
    return redactionMarker('ssn');
  });
}

/** Replaces UK National Insurance numbers: valid ones anywhere, any in the shape after a label. */
export function redactNinos(text: string, count: Counter): string {
  return text.replace(NINO_SHAPE, (whole: string, offset: number) => {
    const labelled =
      NINO_LABEL.test(text.slice(Math.max(0, offset - 40), offset)) ||
      NINO_LABEL_AFTER.test(text.slice(offset + whole.length, offset + whole.length + 60));
    // Unlabelled, only the format as HMRC writes it: capitals, with the suffix letter ("AB123456"
    // alone is also a booking reference, "on 12 34 56 a" a sentence).
    if (!labelled && (!ninoValid(whole) || whole !== whole.toUpperCase())) return whole;
    count('nino', whole);
    return redactionMarker('nino');
  });
}
