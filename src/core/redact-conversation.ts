/**
 * Redaction of one conversation as it is stored, turn by turn. A value hidden once is hidden
 * wherever it comes back later in the conversation, however the echo is written: the agent's
 * "Thanks, entering 2 0 6 0 1 3 now" after the customer's "2FA code 2 0 6 0 1 3", "I've matched
 * 558780620 to your account" after "SSN: 558780620". The values are kept in memory only, by the
 * redactor of that conversation, and never returned.
 */

import { counterFor } from './redact-detectors.js';
import {
  addRedactionCounts,
  emptyRedactionCounts,
  isRedactionMarker,
  redactionMarker,
  type RedactionCounter,
  type RedactionCounts,
  type RedactionKind,
} from './redact-fields.js';
import { readDigitRun } from './redact-number-words.js';
import { questionFor } from './redact-reply.js';
import { redactText, type RedactedText, type RedactTextOptions } from './redact.js';
import { walkValue, type RedactedArguments, type RedactedValue } from './redact-value.js';
import type { TranscriptItem } from './transcript.js';

/** A transcript item with its sensitive values replaced, and how many of each kind. */
export interface RedactedItem {
  item: TranscriptItem;
  counts: RedactionCounts;
}

/** Redacts the turns of one conversation in order, remembering what it hid (see the module comment). */
export interface ConversationRedactor {
  /** {@link redactText}, then the values seen earlier in the conversation. */
  text(text: string, options?: RedactTextOptions): RedactedText;
  /** {@link redactArguments}, then the values seen earlier. */
  arguments(args: Readonly<Record<string, unknown>>): RedactedArguments;
  /** {@link redactValue}, then the values seen earlier. */
  value(value: unknown, fieldName?: string): RedactedValue;
  /**
   * One transcript item for storage: a turn's text, or a tool call's arguments and output (as
   * text, as stored). `answers` is the question a customer's turn answers (see `questionFor`), so
   * that a short reply ("482913") is redacted as what was asked for.
   */
  item(item: TranscriptItem, answers?: string): RedactedItem;
  /** Only the values seen so far, wherever they appear in `value` (strings inside JSON too). */
  scrub<T>(value: T): { value: T; counts: RedactionCounts };
}

interface Remembered {
  kind: RedactionKind;
  marker: string;
  pattern: RegExp;
  length: number;
}

/** How many values one conversation's redactor remembers at most. */
const MAX_REMEMBERED = 256;

const SEPARATORS = String.raw`[\s.\-–—/·_,]{0,3}`;
const BEFORE = String.raw`(?<![\p{L}\p{N}]|\p{N}[.,])`;
const AFTER = String.raw`(?![\p{L}\p{N}]|[.,]\p{N})`;
const MARKERS = /(\[(?:card|iban) ••••[0-9A-Z]{4}\]|\[(?:cvv|otp|password|secret|token|ssn|nino)\])/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Creates the redactor of one conversation. Keep one per conversation for as long as it is open. */
export function createConversationRedactor(): ConversationRedactor {
  const memory = new Map<string, Remembered>();

  const remember: RedactionCounter = (kind, raw) => {
    const value = raw.trim().replace(/[.,;:!?]+$/, '');
    if (value === '' || isRedactionMarker(value)) return;
    const digits = value.replace(/[\s.\-–—/·_,]/g, '');
    const marker = kind === 'card' || kind === 'iban' ? redactionMarker(kind, digits.slice(-4).toUpperCase()) : redactionMarker(kind);
    if (/^\d+$/.test(digits)) addDigits(kind, digits, marker);
    else {
      // A value spelled out ("nine nine three") may come back as digits ("993").
      const run = readDigitRun(value, 0);
      if (run && run.end === value.length && run.digits.length >= 3) addDigits(kind, run.digits, marker);
      // Short words would hide ordinary words wherever they occur.
      if (value.length >= 4) add(kind, value, new RegExp(`${BEFORE}${escape(value)}${AFTER}`, 'giu'), marker);
    }
  };
  const addDigits = (kind: RedactionKind, digits: string, marker: string) => {
    if (digits.length < 3) return;
    // Four digits or more may come back regrouped ("72 39", "4 8 2 9 1 3"); three only as they were.
    const body = digits.length >= 4 ? digits.split('').join(SEPARATORS) : digits;
    add(kind, digits, new RegExp(`${BEFORE}${body}${AFTER}`, 'gu'), marker);
  };
  const add = (kind: RedactionKind, key: string, pattern: RegExp, marker: string) => {
    if (memory.has(key)) return;
    memory.set(key, { kind, marker, pattern, length: key.length });
    // Every remembered value costs a pass over each later text: a tool output listing thousands
    // of cards must not make the rest of the conversation slow. The oldest are forgotten first.
    if (memory.size > MAX_REMEMBERED) memory.delete(memory.keys().next().value as string);
  };

  const scrubText = (text: string, count: RedactionCounter): string => {
    if (memory.size === 0) return text;
    const ordered = [...memory.values()].sort((a, b) => b.length - a.length);
    // Markers are left whole: a remembered "4242" must not eat into "[card ••••4242]".
    return text
      .split(MARKERS)
      .map((part, i) => {
        if (i % 2 === 1) return part;
        let out = part;
        for (const r of ordered) {
          out = out.replace(r.pattern, (found) => {
            count(r.kind, found);
            return r.marker;
          });
        }
        return out;
      })
      .join('');
  };
  const scrubDeep = (value: unknown, count: RedactionCounter): unknown => {
    if (typeof value === 'string') return scrubText(value, count);
    if (Array.isArray(value)) return value.map((v) => scrubDeep(v, count));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, count)]));
    }
    return value;
  };

  const text = (input: string, options: RedactTextOptions = {}): RedactedText => {
    const counts = emptyRedactionCounts();
    const detected = redactText(input, { ...options, onValue: remember });
    addRedactionCounts(counts, detected.counts);
    return { text: scrubText(detected.text, counterFor(counts)), counts };
  };
  const value = (input: unknown, fieldName?: string): RedactedValue => {
    const counts = emptyRedactionCounts();
    const walked = walkValue(input, fieldName, counterFor(counts, remember));
    return { value: scrubDeep(walked, counterFor(counts)), counts };
  };
  const args = (input: Readonly<Record<string, unknown>>): RedactedArguments => {
    const { value: out, counts } = value(input);
    return { arguments: out as Record<string, unknown>, counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
  };

  return {
    text,
    value,
    arguments: args,
    item(item, answers) {
      if (item.role === 'tool') {
        const a = args(item.arguments);
        const output = text(item.output);
        return { item: { ...item, arguments: a.arguments, output: output.text }, counts: addRedactionCounts(a.counts, output.counts) };
      }
      const t = text(item.text, answers === undefined || item.role !== 'customer' ? {} : { answers });
      return { item: { ...item, text: t.text }, counts: t.counts };
    },
    scrub<T>(input: T) {
      const counts = emptyRedactionCounts();
      return { value: scrubDeep(input, counterFor(counts)) as T, counts };
    },
  };
}

/** Redacts every item of a transcript for storage, in order, with one {@link ConversationRedactor}. */
export function redactTranscript(items: readonly TranscriptItem[]): { items: TranscriptItem[]; counts: RedactionCounts } {
  const redactor = createConversationRedactor();
  const counts = emptyRedactionCounts();
  const out = items.map((item, i) => {
    const redacted = redactor.item(item, questionFor(items, i));
    addRedactionCounts(counts, redacted.counts);
    return redacted.item;
  });
  return { items: out, counts };
}
