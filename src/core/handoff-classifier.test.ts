import { MEDICAL_CARE } from './safety-lexicon.js';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DECIDER_POLICY } from './decider-policy.js';
import { decideHandoff } from './decide-handoff.js';
import { anchorWord, loadHandoffModel, scoreClause } from './handoff-classifier.js';
import { HANDOFF_MODEL_DATA } from './handoff-model-data.js';
import { defaultHandoffModel } from './handoff-model.js';
import { extractSignals } from './handoff-signals.js';
import { FEATURE_BUCKETS, WORD_WEIGHT, featureVector, fnv1a, lettersOnly, textFeatures } from './text-features.js';

const decide = (text: string, model = defaultHandoffModel()) =>
  decideHandoff(extractSignals([{ role: 'customer', text }], DEFAULT_DECIDER_POLICY, { model }), DEFAULT_DECIDER_POLICY);
const lexiconOnly = (text: string) =>
  decideHandoff(extractSignals([{ role: 'customer', text }], DEFAULT_DECIDER_POLICY, { model: null }), DEFAULT_DECIDER_POLICY);

// Written for this test, in no corpus (checked below against the development parts), and missed by the lexicon alone.
const PARAPHRASES = [
  ["I'd prefer dealing with one of your team members", 'customer_request'],
  ["i have a bottle of pills and i'm going to take them all", 'safety'],
  ['my brother has a bottle of pills and says he is going to take them all', 'safety'],
] as const;

describe('the hashed features', () => {
  it('hash with FNV-1a, 32 bits', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
  });

  it('are buckets below the table size, of unit length, each credited to a word', () => {
    const f = textFeatures('can i talk to a human');
    expect([...f.values.keys()].every((b) => b >= 0 && b < FEATURE_BUCKETS)).toBe(true);
    const length = Math.sqrt([...f.values.values()].reduce((s, v) => s + v * v, 0));
    expect(length).toBeCloseTo(1, 10);
    expect(f.words.map((w) => w.word)).toEqual(['can', 'i', 'talk', 'to', 'a', 'human']);
    expect(new Set(f.words.flatMap((w) => w.buckets)).size).toBe(f.values.size);
  });
});

/** The features as first written: every key built as a string and hashed whole (the model's weights were trained on these buckets). */
function referenceFeatures(norm: string): Array<[number, number]> {
  const ws = [...norm.matchAll(/[a-z0-9]+(?:'[a-z]+)?/g)].map((m) => m[0]);
  const raw = new Map<number, number>();
  const add = (key: string, weight: number) => {
    const b = fnv1a(key) % FEATURE_BUCKETS;
    if (!raw.has(b)) raw.set(b, weight);
  };
  ws.forEach((w, i) => {
    add(`w:${w}`, WORD_WEIGHT);
    add(`b:${ws[i - 1] ?? '^'} ${w}`, WORD_WEIGHT);
    if (i === ws.length - 1) add(`b:${w} $`, WORD_WEIGHT);
    const padded = ` ${w} `;
    for (let n = 3; n <= 5; n++) for (let k = 0; k + n <= padded.length; k++) add(`c:${padded.slice(k, k + n)}`, 1);
  });
  const length = Math.sqrt([...raw.values()].reduce((s, v) => s + v * v, 0));
  return [...raw].map(([b, v]) => [b, length === 0 ? 0 : v / length]);
}

describe('hashing a key in pieces', () => {
  it.each(['', 'human', "i'd like a human please", 'a b a b a', 'put me through to someone who isnt a bot', 'x9 2 w'])(
    'gives the buckets and values of hashing each whole key, in the same order, by both walks: %j',
    (text) => {
      const want = referenceFeatures(text);
      expect([...textFeatures(text).values]).toEqual(want);
      const v = featureVector(text);
      expect(v.buckets.map((b, i) => [b, v.values[i]])).toEqual(want);
    },
  );
});

describe('the shipped model', () => {
  it('loads, and matches its committed provenance and cross-validation report', () => {
    const model = loadHandoffModel(HANDOFF_MODEL_DATA);
    const p = model.data.provenance;
    expect(model.rows).toBe(p.features);
    expect(p.features).toBeLessThanOrEqual(40_000);
    expect(p.script).toBe('scripts/train-decider-model.ts');
    expect(p.corpora).toEqual([
      'data/decider/blind-dev.jsonl',
      'data/decider/own-dev.jsonl',
      'data/decider/hand-dev.jsonl',
      'data/decider/hand2-dev.jsonl',
      'data/decider/hand3-dev.jsonl',
      'data/decider/hand5-dev.jsonl',
    ]);
    expect(p.corpora.some((c) => /holdout/.test(c))).toBe(false);
    const cv = JSON.parse(readFileSync(new URL('../../data/decider/classifier-cv.json', import.meta.url), 'utf8')) as {
      trainedAt: string;
      chosen: unknown;
      hyperParameters: Record<string, unknown>;
    };
    expect(model.data.thresholds).toEqual(cv.chosen);
    expect(p.trainedAt).toBe(cv.trainedAt);
    for (const [k, v] of Object.entries(cv.hyperParameters)) expect(p.hyperParameters[k]).toBe(v);
  });

  it('refuses malformed data', () => {
    expect(() => loadHandoffModel({ ...HANDOFF_MODEL_DATA, heads: ['safety'] })).toThrow(/heads/);
    expect(() => loadHandoffModel({ ...HANDOFF_MODEL_DATA, features: 'zz:1,2' })).toThrow(/malformed/);
    expect(() => loadHandoffModel({ ...HANDOFF_MODEL_DATA, version: 2 })).toThrow();
  });

  it('is deterministic: the same scores from a fresh load, whatever was scored before', () => {
    const text = "i'd prefer dealing with one of your team members";
    const first = scoreClause(defaultHandoffModel(), text).probability;
    scoreClause(defaultHandoffModel(), 'something else entirely');
    const fresh = loadHandoffModel(HANDOFF_MODEL_DATA);
    expect(scoreClause(fresh, text).probability).toEqual(first);
  });

  it('says which word carried a score', () => {
    const model = defaultHandoffModel();
    const scores = scoreClause(model, 'hello there can i get a human please');
    expect(anchorWord(model, scores.features, 'person_request')?.word).toBe('human');
  });
});

describe('the classifier behind the lexicon', () => {
  const devText = ['blind-dev.jsonl', 'own-dev.jsonl']
    .map((name) => readFileSync(new URL(`../../data/decider/${name}`, import.meta.url), 'utf8').toLowerCase())
    .join('\n');

  it.each(PARAPHRASES)('fires on a paraphrase the lexicon misses: %s → %s', (text, reason) => {
    expect(devText.includes(text.toLowerCase())).toBe(false);
    expect(lexiconOnly(text).handoff).toBe(false);
    const d = decide(text);
    expect(d.reason).toBe(reason);
    const signal = d.signals[0];
    expect(signal && 'classifier' in signal ? signal.classifier?.model : undefined).toMatch(/^handoff-classifier@/);
    expect(d.evidence).toBe(text);
  });

  it.each([
    ["I don't want to deal with one of your team members", 'negated'],
    ["my friend said I'd prefer dealing with one of your team members", 'reported'],
    ["if it fails I'd prefer dealing with one of your team members", 'hypothetical'],
  ])('keeps the lexicon scope: %s (%s) hands nothing off', (text) => {
    expect(decide(text).handoff).toBe(false);
  });

  it('is refused like a lexicon request: a refusal after it cancels it', () => {
    const items = [
      { role: 'customer' as const, text: "I'd prefer dealing with one of your team members" },
      { role: 'agent' as const, text: 'The wait is about 40 minutes, or I can look at it myself.' },
      { role: 'customer' as const, text: 'never mind, no transfer, you look at it' },
    ];
    const d = decideHandoff(extractSignals(items, DEFAULT_DECIDER_POLICY), DEFAULT_DECIDER_POLICY);
    expect(d.handoff).toBe(false);
  });

  it('adds nothing where the lexicon already found the kind', () => {
    const d = decide('can I talk to a human?');
    expect(d.reason).toBe('customer_request');
    expect(d.signals.every((s) => !('classifier' in s) || s.classifier === undefined)).toBe(true);
  });
});

describe('a safety sign spread over two clauses', () => {
  // Warning signs split over two sentences. Which of them the shipped model scores under its
  // threshold clause by clause, and over it as a pair, depends on its training, so the test asks
  // that at least one candidate whose clauses are each under the threshold fires — through the
  // classifier's pair reading, with both sentences as the evidence.
  const pairs: Array<[string, string]> = [
    ['I know who gets my things', 'It will all be over by the weekend'],
    ['I have decided who gets my things', 'It will all be over by the weekend'],
    ['I have counted out what is left of my tablets', 'It should be enough tonight'],
    ['I gave my dog to my sister', 'It will all be over by the weekend'],
    ['I have sorted out who gets my things', 'It will all be over by the weekend'],
    ['I have written to my kids', 'After tonight none of it matters'],
    ['I paid off what I owe everyone', 'After tonight none of it matters'],
    ['I gave my cat to my sister', 'It will all be over by the weekend'],
    ['I have said sorry to everyone', 'It will all be over by the weekend'],
    ['I have left letters for everyone', 'It will all be over by the weekend'],
    ['I have said goodbye to my friends', 'It will all be over soon'],
    // Added for the model retrained on 2026-12-02 (morning), on which none of the above fires as a pair.
    ['The tablets are on the table', 'It should be enough tonight'],
    ['The tablets are on the table', 'I am going tonight'],
    ['The tablets are on the table', 'Tonight I will finish it'],
    // Added for the model retrained on 2026-12-03, on which none of the above fires as a pair.
    ['The pills are in the drawer', 'I will take them tonight'],
  ];

  it('fires on a pair though neither clause reaches the threshold alone', () => {
    const model = defaultHandoffModel();
    const under = (text: string) => scoreClause(model, lettersOnly(text.toLowerCase())).probability.safety < model.data.thresholds.safety;
    const fired = pairs
      .filter(([a, b]) => under(a) && under(b))
      .filter(([a, b]) => {
        const d = decide(`${a}. ${b}.`);
        const sign = d.signals.find((s) => s.kind === 'safety');
        return (
          d.reason === 'safety' &&
          d.evidence === `${a}. ${b}` &&
          sign !== undefined &&
          'classifier' in sign &&
          sign.classifier !== undefined
        );
      });
    expect(fired.length).toBeGreaterThan(0);
  });

  it('does not join a harmless clause to a harmless clause', () => {
    expect(decide('I know who gets the spare SIM. The promotion will all be over by the weekend.').handoff).toBe(false);
    expect(decide('I have counted out what is left of my receipts. It should be enough for the claim.').handoff).toBe(false);
  });
});

describe('an illness given as the reason for a plan', () => {
  it.each([
    'my mother is really sick and i need to get back home sooner to take care of her',
    'my dad has been ill so i want to fly out earlier to be with him',
    "my son's poorly and i have to go home, can i change the booking",
  ])('is no emergency: %s', (text) => {
    expect(MEDICAL_CARE.test(text)).toBe(true);
  });
  it.each([
    'my mother is really sick, she collapsed and i need to get home',
    'my dad is ill and not breathing properly, i need to go home',
    'my wife is sick and we called an ambulance, i need to fly back',
    'my mother is really sick',
  ])('is still read for an emergency: %s', (text) => {
    expect(MEDICAL_CARE.test(text)).toBe(false);
  });
  // Whichever head the model leans to: the pair reading of the lab's non-native rendering scored as danger.
  it('keeps the classifier from reading it as any emergency, on a clause or a pair', () => {
    const text =
      'Dear support, I want to change my upcoming flight from EWR on May 21 to nonstop flight on the same day. My mother is really sick and I need to get back home sooner to take care of her. Please help me.';
    const signals = extractSignals([{ role: 'customer', text }], DEFAULT_DECIDER_POLICY);
    expect(signals.filter((s) => s.kind === 'safety')).toEqual([]);
  });
});
