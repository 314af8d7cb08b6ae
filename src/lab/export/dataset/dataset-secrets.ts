/**
 * The last check before a dataset is written: the runtime's redaction (`redactValue`, the walk
 * the runtime stores tool arguments through, with every detector of `src/core/redact*.ts`) run
 * over every row whole. Whatever it would change holds a secret (a card number, a code, a
 * password, a key, an IBAN, a national id) that redaction missed or that a run folder was edited
 * to hold; the export then writes nothing. The row is judged whole, not value by value, so that a
 * value is judged by its field's name and by its siblings' (`{"key": "code", "value": "482913"}`)
 * as the runtime judges them.
 *
 * A JSON-text column is judged as the JSON it holds (not as text: its keys and punctuation are not
 * words), so that its values are judged by their field names too (`{"cvv": "123"}`). Two kinds of
 * value are judged differently, both because the detectors misread them:
 * - A number is judged by its digits alone (a card number written as a number), not by its field's
 *   name: under a sensitive name it is a count (the packet's `redactions: {"password": 0}`), never
 *   a secret redaction would have left as a number.
 * - A value that is wholly a hex digest (a 40-digit commit, a 64-digit SHA-256) is judged by its
 *   field's name only: redaction keeps unlabelled hashes by design, and such a value is longer
 *   than any IBAN (34 characters at most), though a prefix of one can pass the IBAN checksum.
 */
import { redactValue, REDACTION_KINDS, sensitiveFieldKind, type RedactionKind } from '../../../core/index.js';

/** A secret found: where, and of what kind (never the value). */
export interface SecretFinding {
  /** The file, relative to the dataset folder. */
  file: string;
  /** 1-based line of the file. */
  line: number;
  /** `messages[3].content`, or inside a JSON-text column `messages[2].tool_calls[0].arguments_json → card_number`. */
  field: string;
  kinds: RedactionKind[];
}

const HEX_DIGEST = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** The markers redaction puts in place of a secret (`[otp]`, `[card ••••4242]`), with their kind. */
const MARKER = /\[(card|iban) ••••[0-9A-Z]{4}\]|\[(cvv|otp|password|secret|token|ssn|nino)\]/g;

const kindsOf = (counts: Record<RedactionKind, number>) => REDACTION_KINDS.filter((kind) => counts[kind] > 0);

function markerCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(MARKER)) {
    const kind = (m[1] ?? m[2]) as string;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

type Report = (field: string, kinds: RedactionKind[]) => void;

/** The path of a child: `a.b`, `a[0]`; inside a JSON-text column `a_json → b`. */
const childPath = (at: string, key: string | number, jsonRoot: boolean): string => {
  const step = typeof key === 'number' ? `[${key}]` : key;
  if (jsonRoot) return `${at} → ${step}`;
  if (typeof key === 'number') return `${at}${step}`;
  return at === '' ? step : `${at}.${step}`;
};

/**
 * What redaction judges of a row: JSON-text columns parsed, numbers and hex digests (under names
 * that are not sensitive) taken out (null), the rest as it is. Integers are judged here, by their
 * digits. `roots` collects the parsed columns, for naming paths inside them.
 */
function probe(
  value: unknown,
  fieldName: string | undefined,
  at: string,
  roots: WeakSet<object>,
  report: Report,
  jsonRoot = false,
): unknown {
  if (typeof value === 'string') {
    if (fieldName?.endsWith('_json') === true) {
      const parsed = parsedJson(value);
      // Written by JSON.stringify, so it parses; were it not JSON, it would be judged as text.
      if (parsed !== null && typeof parsed === 'object') {
        const inner = probe(parsed, undefined, at, roots, report, true) as object;
        roots.add(inner);
        return inner;
      }
    }
    if (HEX_DIGEST.test(value) && (fieldName === undefined || sensitiveFieldKind(fieldName) === null)) return null;
    return value;
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value)) {
      const kinds = kindsOf(redactValue(String(value)).counts);
      if (kinds.length > 0) report(at, kinds);
    }
    return null;
  }
  if (Array.isArray(value)) return value.map((item, i) => probe(item, fieldName, childPath(at, i, jsonRoot), roots, report));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, probe(item, key, childPath(at, key, jsonRoot), roots, report)]),
    );
  }
  return value;
}

/** Reports every string redaction changed, with the kinds of the markers it put in. */
function changes(before: unknown, after: unknown, at: string, roots: WeakSet<object>, report: Report): void {
  if (typeof before === 'string') {
    if (typeof after === 'string' && after === before) return;
    const was = markerCounts(before);
    const now = typeof after === 'string' ? markerCounts(after) : new Map<string, number>();
    const kinds = REDACTION_KINDS.filter((kind) => (now.get(kind) ?? 0) > (was.get(kind) ?? 0));
    report(at, kinds.length > 0 ? kinds : kindsOf(redactValue(before).counts));
    return;
  }
  if (before === null || typeof before !== 'object') return;
  const jsonRoot = roots.has(before);
  if (Array.isArray(before)) {
    before.forEach((item, i) => changes(item, (after as unknown[] | undefined)?.[i], childPath(at, i, jsonRoot), roots, report));
    return;
  }
  const next = (after ?? {}) as Record<string, unknown>;
  for (const [key, item] of Object.entries(before)) changes(item, next[key], childPath(at, key, jsonRoot), roots, report);
}

/** Every secret in the rows of one file (`rows[i]` is line i + 1), and how many values were judged. */
export function findSecrets(file: string, rows: readonly unknown[]): { findings: SecretFinding[]; judged: number } {
  const findings: SecretFinding[] = [];
  let judged = 0;
  rows.forEach((row, i) => {
    const report: Report = (field, kinds) => findings.push({ file, line: i + 1, field, kinds });
    const roots = new WeakSet<object>();
    const judgedRow = probe(row, undefined, '', roots, report);
    judged += countJudged(row);
    const { value, counts } = redactValue(judgedRow);
    if (kindsOf(counts).length > 0) changes(judgedRow, value, '', roots, report);
  });
  return { findings, judged };
}

/** Strings and integers, those inside JSON-text columns included: what the detectors judge. */
function countJudged(value: unknown, fieldName?: string): number {
  if (typeof value === 'string') {
    const parsed = fieldName?.endsWith('_json') === true ? parsedJson(value) : undefined;
    return parsed !== null && typeof parsed === 'object' ? countJudged(parsed) : 1;
  }
  if (typeof value === 'number') return Number.isInteger(value) ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countJudged(item, fieldName), 0);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).reduce((n: number, [key, item]) => n + countJudged(item, key), 0);
  return 0;
}

/** The refusal, naming each file, line and field (at most `shown` of them) and never a value. */
export function secretsMessage(findings: readonly SecretFinding[], shown = 20): string {
  const lines = findings.slice(0, shown).map((f) => `  ${f.file} line ${f.line}, field ${f.field}: ${f.kinds.join(', ')}`);
  const more = findings.length > shown ? [`  … and ${findings.length - shown} more`] : [];
  return [
    `refusing to export: the redaction detectors found ${findings.length} secret${findings.length === 1 ? '' : 's'} in the rows (nothing was written):`,
    ...lines,
    ...more,
    'A run folder holds only redacted text (baton eval redacts before it writes): a secret here was missed when the run was written (the detectors may have learnt it since) or put there by an edit. Leave the run out, or remove the secret from it.',
  ].join('\n');
}
