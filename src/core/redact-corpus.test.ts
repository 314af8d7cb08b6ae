import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactTranscript } from './redact-conversation.js';
import { RedactionCaseSchema, scoreCase, scoreCorpus, secretSurvives, type RedactionCase } from './redact-corpus.js';

// The dev parts only: the holdouts are scored once, by scripts/score-redaction.ts, and reported
// in docs/redaction.md.
const DATA = join(import.meta.dirname, '..', '..', 'data', 'redaction');
const load = (file: string): RedactionCase[] =>
  readFileSync(join(DATA, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => RedactionCaseSchema.parse(JSON.parse(line)));

describe('the scorer', () => {
  it('sees a secret as written, in any case, or re-joined without separators', () => {
    expect(secretSurvives('4111 1111 1111 1111', 'card 4111-1111-1111-1111')).toBe(true);
    expect(secretSurvives('AB 12 34 56 C', 'nino ab123456c')).toBe(true);
    expect(secretSurvives('737', 'order 7737')).toBe(true);
    expect(secretSurvives('737', 'cvv [cvv]')).toBe(false);
  });

  it('counts a secret redaction cannot know, and an ordinary string it loses', () => {
    const entry: RedactionCase = {
      id: 't',
      class: 'otp',
      conversation: { messages: [{ role: 'customer', text: 'it just came through, 587102. my card is 4111 1111 1111 1111' }] },
      // Unlabelled, unasked: nothing says 587102 is a code.
      secrets: ['587102'],
      // Kept as written only if redaction does not touch it, which it does.
      keep: ['4111 1111 1111 1111', 'it just came through'],
    };
    const result = scoreCase(entry);
    expect(result.inPacket).toEqual(['587102']);
    expect(result.atRest).toEqual(['587102']);
    expect(result.overRedacted).toEqual(['4111 1111 1111 1111']);
    expect(result.absentKeep).toEqual([]);
  });
});

describe('redaction on the dev corpora', () => {
  it("Baton's own dev corpus: no secret survives, nothing ordinary is lost", () => {
    const { score } = scoreCorpus(load('own-dev.jsonl'));
    expect(score.cases).toBeGreaterThanOrEqual(300);
    expect(score.absentKeep).toBe(0);
    expect(score.survivingInPacket).toBe(0);
    expect(score.survivingAtRest).toBe(0);
    expect(score.overRedacted).toBe(0);
  });

  it('the blind dev corpus: nothing ordinary is lost, and only unlabelled bare numbers survive', () => {
    const { score, results } = scoreCorpus(load('blind/secrets-dev.jsonl'));
    expect(score.cases).toBe(338);
    expect(score.absentKeep).toBe(0);
    expect(score.overRedacted).toBe(0);
    // What survives is a bare number no label, question or field names ("it just came through,
    // 587102") until a later turn does, which storage, written turn by turn, cannot use; the
    // packet, built from the whole log, hides those. docs/redaction.md lists them. This ceiling
    // may only go down.
    expect(score.survivingInPacket).toBeLessThanOrEqual(2);
    expect(score.survivingAtRest).toBeLessThanOrEqual(4);
    for (const r of results) for (const s of [...r.inPacket, ...r.atRest]) expect(s).toMatch(/^\d{6,8}$/);
  });

  it('is idempotent on every conversation of both: stored twice is stored once, and counts nothing', () => {
    for (const entry of [...load('own-dev.jsonl'), ...load('blind/secrets-dev.jsonl')]) {
      const once = redactTranscript(entry.conversation.messages);
      const twice = redactTranscript(once.items);
      expect(twice.items).toEqual(once.items);
      expect(Object.values(twice.counts).every((n) => n === 0)).toBe(true);
    }
  });
});
