/**
 * How redaction is measured on a labelled corpus (`data/redaction/*.jsonl`): each entry is a
 * conversation as `baton packet --jsonl` reads it, the secrets that must not survive and the
 * ordinary strings (ids, amounts, dates, tracking numbers, phones, e-mails) that must. A secret
 * survives when it appears in the context packet or in the conversation as stored
 * ({@link redactTranscript}), as written or with its separators taken out; a keep-string is
 * over-redacted when it is in the conversation but not in the conversation as stored.
 */

import { z } from 'zod';
import { buildContextPacket } from './context-packet.js';
import { redactTranscript } from './redact-conversation.js';
import { HandoffReasonSchema, TranscriptItemSchema } from './transcript.js';

/** One corpus entry. `variants` names the ways its secrets are written, for reading failures. */
export const RedactionCaseSchema = z.object({
  id: z.string(),
  class: z.string(),
  variants: z.array(z.string()).optional(),
  conversation: z.object({
    messages: z.array(TranscriptItemSchema),
    summary: z.string().optional(),
    decision: z.object({ reason: HandoffReasonSchema, evidence: z.string().nullable().optional() }).optional(),
    transcript_ref: z.string().optional(),
    read_tools: z.array(z.string()).optional(),
    write_tools: z.array(z.string()).optional(),
  }),
  secrets: z.array(z.string()),
  keep: z.array(z.string()),
});
/** One corpus entry. */
export type RedactionCase = z.infer<typeof RedactionCaseSchema>;

/** What went wrong in one entry: secrets found (and where) and keep-strings lost. */
export interface CaseResult {
  id: string;
  class: string;
  secrets: number;
  inPacket: string[];
  atRest: string[];
  keep: number;
  overRedacted: string[];
  /** Keep-strings that the conversation does not contain at all (a corpus error, not counted). */
  absentKeep: string[];
}

/** Aggregates over a corpus: nothing here names a corpus string. */
export interface CorpusScore {
  cases: number;
  secrets: number;
  survivingInPacket: number;
  survivingAtRest: number;
  keep: number;
  overRedacted: number;
  absentKeep: number;
  byClass: Record<string, { cases: number; secrets: number; inPacket: number; atRest: number; keep: number; overRedacted: number }>;
}

const compact = (s: string) => s.toLowerCase().replace(/[\s\-._/·–—,]/g, '');

/** True when `secret` can be read in `text`: as written (any case), or re-joined without separators. */
export function secretSurvives(secret: string, text: string): boolean {
  if (text.toLowerCase().includes(secret.toLowerCase())) return true;
  const c = compact(secret);
  // Short values ("737") re-joined would match unrelated digits; they count as written only.
  return c.length >= 8 && compact(text).includes(c);
}

/** Scores one entry. */
export function scoreCase(entry: RedactionCase): CaseResult {
  const c = entry.conversation;
  const packet = buildContextPacket({
    items: c.messages,
    decision: c.decision,
    summary: c.summary,
    transcriptRef: c.transcript_ref,
    readTools: c.read_tools,
    writeTools: c.write_tools,
  });
  const packetText = JSON.stringify(packet);
  const original = JSON.stringify(c.messages);
  const stored = redactTranscript(c.messages).items;
  // Strings are compared as they read, not as JSON escapes them.
  const storedText = stored
    .map((item) => (item.role === 'tool' ? `${JSON.stringify(item.arguments)}\n${item.output}` : item.text))
    .join('\n');
  const originalText = c.messages
    .map((item) => (item.role === 'tool' ? `${JSON.stringify(item.arguments)}\n${item.output}` : item.text))
    .join('\n');
  const present = (s: string) => originalText.includes(s) || original.includes(s);
  return {
    id: entry.id,
    class: entry.class,
    secrets: entry.secrets.length,
    inPacket: entry.secrets.filter((s) => secretSurvives(s, packetText)),
    atRest: entry.secrets.filter((s) => secretSurvives(s, storedText)),
    keep: entry.keep.length,
    overRedacted: entry.keep.filter((k) => present(k) && !storedText.includes(k)),
    absentKeep: entry.keep.filter((k) => !present(k)),
  };
}

/** Scores a corpus and sums it up, overall and per class. */
export function scoreCorpus(entries: readonly RedactionCase[]): { score: CorpusScore; results: CaseResult[] } {
  const results = entries.map(scoreCase);
  const score: CorpusScore = {
    cases: results.length,
    secrets: 0,
    survivingInPacket: 0,
    survivingAtRest: 0,
    keep: 0,
    overRedacted: 0,
    absentKeep: 0,
    byClass: {},
  };
  for (const r of results) {
    score.secrets += r.secrets;
    score.survivingInPacket += r.inPacket.length;
    score.survivingAtRest += r.atRest.length;
    score.keep += r.keep;
    score.overRedacted += r.overRedacted.length;
    score.absentKeep += r.absentKeep.length;
    const k = (score.byClass[r.class] ??= { cases: 0, secrets: 0, inPacket: 0, atRest: 0, keep: 0, overRedacted: 0 });
    k.cases += 1;
    k.secrets += r.secrets;
    k.inPacket += r.inPacket.length;
    k.atRest += r.atRest.length;
    k.keep += r.keep;
    k.overRedacted += r.overRedacted.length;
  }
  return { score, results };
}
