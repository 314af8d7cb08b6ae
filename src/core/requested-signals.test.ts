import { describe, expect, it } from 'vitest';
import { decideHandoff, decideTranscript } from './decide-handoff.js';
import { DEFAULT_DECIDER_POLICY } from './decider-policy.js';
import { extractSignals, requestedSignals } from './handoff-signals.js';
import type { TranscriptItem } from './transcript.js';

describe('a structured request for a person (the web chat\'s "Talk to a person")', () => {
  // Words the lexicon reads as no request at all: only the flag can make this a request.
  const pressed: TranscriptItem = { role: 'customer', text: 'ok', request: 'person' };

  it('hands off as customer_request whatever the text says', () => {
    expect(decideTranscript([{ role: 'customer', text: 'ok' }]).handoff).toBe(false);
    const decision = decideTranscript([{ role: 'customer', text: 'I want to pay my bill' }, { role: 'agent', text: 'Sure.' }, pressed]);
    expect(decision).toMatchObject({ handoff: true, reason: 'customer_request', evidence: 'ok' });
  });

  it('is read from the structure alone, and withdrawn like a typed request', () => {
    const signals = extractSignals([pressed], DEFAULT_DECIDER_POLICY);
    expect(signals).toEqual([{ kind: 'human_request', evidence: 'ok', index: 0, offset: 0 }]);
    expect(requestedSignals([{ role: 'customer', text: 'ok' }, pressed])).toEqual([
      { kind: 'human_request', evidence: 'ok', index: 1, offset: 0 },
    ]);
    // The customer called it off afterwards, in words: no hand-off now.
    const withdrawn = [
      pressed,
      { role: 'agent', text: 'A colleague will join.' },
      { role: 'customer', text: 'never mind, I no longer need a person' },
    ] as const;
    expect(decideHandoff(extractSignals(withdrawn, DEFAULT_DECIDER_POLICY)).handoff).toBe(false);
  });
});
