/**
 * The last check before a dataset is written: the runtime's redaction detectors
 * (`src/core/redact*.ts`), run over every string of every row. A string they would change holds
 * a secret (a card number, a code, a password, a key, an IBAN, a national id) that redaction
 * missed or that a run folder was edited to hold; the export then writes nothing.
 *
 * A JSON-text column is read as JSON (not as text: its keys and punctuation are not words), so
 * that each value is also judged by the field it sits under (`{"cvv": "123"}`), as the runtime
 * judges tool arguments. A number is judged by its digits alone (a card number written as a
 * number), not by its field's name: under a sensitive name it is a count (the packet's
 * `redactions: {"password": 0}`), never a secret redaction would have left as a number.
 *
 * A value that is wholly a hex digest (a 40-digit commit, a 64-digit SHA-256) is judged by its
 * field's name only: redaction keeps unlabelled hashes by design, and such a value is longer than
 * any IBAN (34 characters at most), though a prefix of one can pass the IBAN checksum by chance.
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

function kindsFound(value: string | number, fieldName: string | undefined): RedactionKind[] {
  if (typeof value === 'string' && HEX_DIGEST.test(value)) {
    const kind = fieldName === undefined ? null : sensitiveFieldKind(fieldName);
    return kind === null ? [] : [kind];
  }
  const { counts } = typeof value === 'number' ? redactValue(String(value)) : redactValue(value, fieldName);
  return REDACTION_KINDS.filter((kind) => counts[kind] > 0);
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Told of every value judged, with the kinds of secret found in it (none: clean). */
type Report = (field: string, kinds: RedactionKind[]) => void;

function scan(value: unknown, at: string, fieldName: string | undefined, report: Report): void {
  if (typeof value === 'string' && fieldName?.endsWith('_json') === true) {
    const parsed = parsedJson(value);
    // Written by JSON.stringify, so it parses; were it not JSON, it would be judged as text.
    if (parsed !== undefined) {
      scan(parsed, `${at} →`, undefined, report);
      return;
    }
  }
  if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))) {
    report(at, kindsFound(value, fieldName));
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => scan(item, `${at}[${i}]`, fieldName, report));
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const path = at === '' ? key : at.endsWith('→') ? `${at} ${key}` : `${at}.${key}`;
      scan(item, path, key, report);
    }
  }
}

/** Every secret in the rows of one file (`rows[i]` is line i + 1), and how many values were judged. */
export function findSecrets(file: string, rows: readonly unknown[]): { findings: SecretFinding[]; judged: number } {
  const findings: SecretFinding[] = [];
  let judged = 0;
  rows.forEach((row, i) =>
    scan(row, '', undefined, (field, kinds) => {
      judged += 1;
      if (kinds.length > 0) findings.push({ file, line: i + 1, field, kinds });
    }),
  );
  return { findings, judged };
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
