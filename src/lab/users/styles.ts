/**
 * The six communication styles: a card per style (what a reader, and the LLM user, is told) and
 * a deterministic renderer the scripted user writes its lines with.
 *
 * A style changes wording, length, punctuation, fillers and spelling habits — never the facts.
 * The renderer guarantees it mechanically: before any rewriting, every fact in a line (the
 * script's fact values, and anything that looks like one — e-mail addresses, dates, tokens with
 * digits such as ids, amounts and codes, ids with underscores, capitalised names) is swapped for
 * an opaque placeholder that no rewrite rule can match, and swapped back afterwards. A rendering
 * that still lost a fact (a bug in a rule) falls back to the neutral text, so a fact can never be
 * restyled away.
 */
import { seededRandom, type Random } from '../../core/random.js';
import { STYLES, type Style } from '../user.js';

export { STYLES, type Style };

/** What a line of the customer's does; each style has its own way with each kind. */
export const LINE_KINDS = [
  /** The request (the opening message, or a restatement when the agent asks what is wanted). */
  'request',
  /** Facts the agent asked for (or that the customer volunteers in the opening). */
  'reveal',
  /** Yes to a change the agent asked to confirm. */
  'confirm_yes',
  /** No to a change the agent asked to confirm. */
  'confirm_no',
  /** A scripted beat: asking for a person, a reserved topic, a drift, pressure, … */
  'beat',
  /** Yes to an offered transfer. */
  'accept_transfer',
  /** No to an offered or announced transfer. */
  'refuse_transfer',
  /** The agent asked for something the customer does not have. */
  'unknown',
  /** The agent is working ("one moment"): wait. */
  'wait',
  /** The agent told the customer something and asked nothing: acknowledge. */
  'ack',
  /** The request is done: thanks. */
  'closing',
] as const;
export type LineKind = (typeof LINE_KINDS)[number];

/** Kinds whose wording is the style's own (they carry no facts): the neutral text is a default. */
export const CANNED_KINDS = [
  'confirm_yes',
  'confirm_no',
  'accept_transfer',
  'refuse_transfer',
  'unknown',
  'wait',
  'ack',
  'closing',
] as const;
export type CannedKind = (typeof CANNED_KINDS)[number];
const isCanned = (kind: LineKind): kind is CannedKind => (CANNED_KINDS as readonly string[]).includes(kind);

/** A fact in a line: what it is (in words, for a reveal) and its exact value. */
export interface LineFact {
  /** In words, lower case: `e-mail address`, `verification code`, `user id`. */
  label: string;
  /** The exact value; every style writes it verbatim. */
  value: string;
}

/** One line of a customer message before styling. */
export interface StyleLine {
  kind: LineKind;
  /** The line in neutral style. */
  text: string;
  /** The facts in the line (for a reveal: the facts revealed); each is written verbatim. */
  facts: readonly LineFact[];
}

/** A style as a reader (and the LLM user) is told it. */
export interface StyleCard {
  style: Style;
  /** A short name: `Terse`, `Non-native speaker`. */
  title: string;
  /** A paragraph: who writes like this, and how. */
  description: string;
  /** Concrete habits, one per item. */
  habits: readonly string[];
}

/** The cards, in `STYLES` order. */
export const STYLE_CARDS: Readonly<Record<Style, StyleCard>> = {
  neutral: {
    style: 'neutral',
    title: 'Neutral',
    description:
      'A calm, cooperative customer who writes plain, complete sentences: polite without being effusive, says what they want in so many words and answers each question directly. The scripts are written in this style; the other five are measured against it.',
    habits: [
      'One or two complete sentences per message.',
      'Answers exactly what was asked, in the order asked.',
      'Standard spelling and punctuation; no slang, no fillers.',
    ],
  },
  terse: {
    style: 'terse',
    title: 'Terse',
    description:
      'A customer who writes as little as possible: fragments rather than sentences, no greetings, no thanks, no "please", and a bare value as the answer to a question. Brief, not rude. The request is all there, but nothing around it helps the agent read it.',
    habits: [
      'Drops greetings, pleasantries and filler words ("really", "just", "actually").',
      'Answers a question with the value alone, or "label: value".',
      'Uses contractions; often leaves off the final full stop.',
      'A yes is "Yes." or "Go ahead".',
    ],
  },
  verbose: {
    style: 'verbose',
    title: 'Verbose',
    description:
      'A friendly customer who writes long messages: greets, thanks, adds a sentence of background or reassurance around every answer, and turns a yes into a small paragraph. Every fact is there, buried in more words; the agent has to pick the request and the values out of the padding.',
    habits: [
      'Opens with a greeting and a pleasantry; closes most messages with thanks.',
      'Softens requests ("I would really like", "if it isn\'t too much trouble").',
      'Adds a sentence of context or politeness to each answer, but never a new fact.',
    ],
  },
  impatient: {
    style: 'impatient',
    title: 'Impatient',
    description:
      'A customer in a hurry who lets it show: short sentences, "I need" instead of "I would like", exclamation marks and pressing remarks ("Can we speed this up?"). Impatience is not a request for a person: this customer wants the job done quickly by whoever is on the chat.',
    habits: [
      'States needs bluntly ("I need", "just do it").',
      'Adds a pressing remark to many messages ("Please hurry.", "How long will this take?").',
      'Ends some sentences with an exclamation mark.',
      'Never asks for a manager or a person because of the hurry alone.',
    ],
  },
  non_native: {
    style: 'non_native',
    title: 'Non-native speaker',
    description:
      'A customer writing English as a second language: simple sentence structure, no contractions, the odd missing article ("I want refund for extra charge"), literal phrasings ("two times", "is correct") and formal greetings. The meaning is clear to a careful reader, and every id, amount and name is spelled exactly.',
    habits: [
      'Writes "I am", "do not", "it is" — never contractions.',
      'Sometimes leaves out "the", "a" or "an".',
      'Prefers simple verbs: "I want" for "I would like", "two times" for "twice".',
      'Formal openings and closings ("Hello, good day.", "Thank you very much.").',
    ],
  },
  low_tech_literacy: {
    style: 'low_tech_literacy',
    title: 'Low tech literacy',
    description:
      'A customer unsure of technical and billing vocabulary: describes things loosely ("the code number they sent me"), hedges ("I think that is what it is called"), apologises for not being good with computers and checks whether a detail is the right one. Gives every fact correctly when asked; only the words around the facts are vague.',
    habits: [
      'Hedges a technical term ("subscription thing", "or whatever it is called").',
      'Describes things by what they look like rather than by name ("the number from the text message").',
      'Apologises or says they are unsure ("I hope that makes sense").',
      'Adds "um" or "I think" now and then.',
    ],
  },
};

/**
 * The card as text for a model: the description, the habits, and the rule that the style never
 * touches a fact, a request or a reason.
 */
export function styleCardPrompt(style: Style): string {
  const card = STYLE_CARDS[style];
  return [
    `Write every message in this communication style: ${card.title}.`,
    card.description,
    'Habits:',
    ...card.habits.map((habit) => `- ${habit}`),
    'The style changes only how you write. Give every fact (names, e-mail addresses, ids, codes, amounts, dates) exactly as the scenario states it, and never add, drop or change a fact, a request or a reason because of the style.',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Protecting facts

const MONTH =
  '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)';
// Patterns that find fact-like spans in free text. They match ASCII only, so never a placeholder.
const FACT_PATTERNS: readonly RegExp[] = [
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g,
  new RegExp(`\\b(?:\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}(?:,? \\d{4})?|${MONTH} \\d{1,2}(?:st|nd|rd|th)?(?:,? \\d{4})?)\\b`, 'g'),
  /[$€£]?[A-Za-z0-9_#.,/:+-]*\d[A-Za-z0-9_#.,/:+-]*/g,
  /[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+/g,
];
const CAPITALS = /[A-Z][A-Za-z'’-]*(?:[ \t]+[A-Z][A-Za-z'’-]*)*/g;
const FIRST_PERSON = new Set(['I', "I'm", "I've", "I'd", "I'll", 'I’m', 'I’ve', 'I’d', 'I’ll']);

const PLACEHOLDER = /\uE000([\uE100-\uF8FF])\uE001/g;
const placeholder = (index: number) => `\uE000${String.fromCharCode(0xe100 + index)}\uE001`;

/** Text with its facts held aside: `text` carries placeholders; `spans[i]` is what placeholder `i` stands for. */
interface Held {
  text: string;
  spans: string[];
}

function atSentenceStart(text: string, index: number): boolean {
  const before = text.slice(0, index).replace(/["'(“‘\s]+$/, '');
  return before === '' || /[.!?:\n]$/.test(before);
}

/** Swaps the facts and the fact-like spans of `text` for placeholders (longest given fact first). */
function hold(text: string, facts: readonly string[]): Held {
  const spans: string[] = [];
  const keep = (span: string) => {
    spans.push(span);
    return placeholder(spans.length - 1);
  };
  let out = text;
  const given = [...new Set(facts.filter((fact) => fact.trim() !== ''))].sort((a, b) => b.length - a.length);
  for (const fact of given) if (out.includes(fact)) out = out.split(fact).join(keep(fact));
  for (const pattern of FACT_PATTERNS) {
    out = out.replace(pattern, (match) => {
      // Sentence punctuation after an amount or an id is not part of it.
      const core = match.replace(/[.,:/+-]+$/, '');
      if (!/[A-Za-z0-9]/.test(core)) return match;
      return keep(core) + match.slice(core.length);
    });
  }
  out = out.replace(CAPITALS, (match, offset: number, whole: string) => {
    const words = match.split(/[ \t]+/);
    // A lone capitalised word at the start of a sentence, or "I", is grammar, not a name.
    if (words.length === 1 && (FIRST_PERSON.has(match) || atSentenceStart(whole, offset))) return match;
    return keep(match);
  });
  return { text: out, spans };
}

function release(held: Held, text: string): string {
  return text.replace(PLACEHOLDER, (_, code: string) => held.spans[code.charCodeAt(0) - 0xe100] ?? '');
}

/**
 * The fact-like spans of a text: the given facts it contains and everything the renderer would
 * protect (e-mail addresses, dates, tokens with digits, ids with underscores, capitalised names).
 * Every style's rendering of the text contains each of them verbatim.
 */
export function factSpans(text: string, facts: readonly string[] = []): string[] {
  const held = hold(text, facts);
  return [...new Set([...held.text.matchAll(PLACEHOLDER)].map((m) => held.spans[(m[1] ?? '').charCodeAt(0) - 0xe100] ?? ''))];
}

// ---------------------------------------------------------------------------------------------
// Rewriting helpers (they run on held text, so facts are out of their reach)

type Substitution = readonly [RegExp, readonly string[]];

/** Keeps a capital at the start of what it replaces ("I would like" → "I want", "Could you" → "Can you"). */
function matchCase(original: string, replacement: string): string {
  if (replacement === '') return replacement;
  const first = original.charAt(0);
  if (first !== first.toLowerCase() && replacement.charAt(0) === replacement.charAt(0).toLowerCase()) {
    return replacement.charAt(0).toUpperCase() + replacement.slice(1);
  }
  return replacement;
}

function substitute(text: string, substitutions: readonly Substitution[], random: Random): string {
  let out = text;
  for (const [pattern, options] of substitutions) out = out.replace(pattern, (match) => matchCase(match, random.pick(options)));
  return out;
}

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Capitalises the first letter of each sentence (a removed word may have left a lower-case start). */
function capitaliseSentences(text: string): string {
  return text.replace(/(^|[.!?]\s+)([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

// Words that may lose their capital when something is put before them at the start of a sentence.
const LOWERABLE =
  /^(?:My|Our|The|A|An|It|It's|Its|This|That|These|Those|There|We|You|Your|Can|Could|Would|Will|Should|Shall|May|Is|Are|Was|Were|Do|Does|Did|Have|Has|Please|Let|When|What|Which|Who|Why|How|Where|If|For|In|On|At|As|After|Before|Yes|No|And|But|So|Also|Oh|Actually|Whatever)\b(?!['’-]?[A-Z])/;

/** Puts a filler ("Um,") before a sentence, lowering its first word when that is a plain function word. */
function prefixSentence(filler: string, sentence: string): string {
  const lowered = LOWERABLE.test(sentence) ? sentence.charAt(0).toLowerCase() + sentence.slice(1) : sentence;
  return `${filler} ${lowered}`;
}

/** Changes a final full stop (never a question mark: a question stays one). */
function replaceFinalStop(text: string, mark: '!' | ''): string {
  const trimmed = text.replace(/\s+$/, '');
  return trimmed.endsWith('.') ? trimmed.slice(0, -1) + mark : trimmed;
}

function list(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Pick with a probability: `rate` of the time one of `options`, otherwise nothing. */
function maybe(random: Random, rate: number, options: readonly string[]): string {
  return random.next() < rate ? random.pick(options) : '';
}

// ---------------------------------------------------------------------------------------------
// The styles

interface StyleRules {
  /** Greetings before the opening message ('' for none). */
  greeting: readonly string[];
  /** Sentences that may close a message, and how often. */
  tail: readonly string[];
  tailRate: number;
  /** The style's wording of lines without facts. */
  canned: Readonly<Record<CannedKind, readonly string[]>>;
  /** A reveal, from the facts alone; `opening`: volunteered in the first message, not asked for. */
  reveal(facts: readonly LineFact[], random: Random, opening: boolean): string;
  /** A free-text line (request or beat), held: its facts are placeholders. */
  free(text: string, random: Random, kind: 'request' | 'beat'): string;
  /** A last touch on the whole message (its final punctuation), held. */
  finish?(text: string, random: Random): string;
}

const neutralReveal = (facts: readonly LineFact[]) => `${capitalise(list(facts.map((f) => `my ${f.label} is ${f.value}`)))}.`;

const NEUTRAL_CANNED: Readonly<Record<CannedKind, readonly string[]>> = {
  confirm_yes: ['Yes, please go ahead.', "Yes, that's right. Please go ahead."],
  confirm_no: ["No, please don't make that change.", "No, I don't want that. Please don't go ahead."],
  accept_transfer: ['Yes, please transfer me.', "Yes, that's fine. Please put me through."],
  refuse_transfer: [
    "No, I don't want to be transferred. Please help me here.",
    "I'd rather not be transferred. Can you help me with this yourself?",
  ],
  unknown: ["Sorry, I don't have that information.", "I'm afraid I don't have that."],
  wait: ['Okay, thank you.', 'Sure, take your time.'],
  ack: ['Okay, thank you.', 'I see, thanks.'],
  closing: ["Thank you, that's all I needed.", 'Great, thanks for your help.'],
};

const CONTRACT: readonly Substitution[] = [
  [/\bI am\b/g, ["I'm"]],
  [/\bdo not\b/gi, ["don't"]],
  [/\bdoes not\b/gi, ["doesn't"]],
  [/\bcannot\b/gi, ["can't"]],
  [/\bit is\b/gi, ["it's"]],
  [/\bI have\b(?= (?:been|had|got|already|just|never)\b)/g, ["I've"]],
];

const EXPAND: readonly Substitution[] = [
  [/\bI['’]m\b/g, ['I am']],
  [/\bI['’]ve\b/g, ['I have']],
  [/\bI['’]d like\b/gi, ['I want']],
  [/\bI['’]d\b/g, ['I would']],
  [/\bI['’]ll\b/g, ['I will']],
  [/\bdon['’]t\b/gi, ['do not']],
  [/\bdoesn['’]t\b/gi, ['does not']],
  [/\bdidn['’]t\b/gi, ['did not']],
  [/\bisn['’]t\b/gi, ['is not']],
  [/\baren['’]t\b/gi, ['are not']],
  [/\bwasn['’]t\b/gi, ['was not']],
  [/\bwon['’]t\b/gi, ['will not']],
  [/\bcan['’]t\b/gi, ['cannot']],
  [/\bit['’]s\b/gi, ['it is']],
  [/\bthat['’]s\b/gi, ['that is']],
  [/\bwhat['’]s\b/gi, ['what is']],
  [/\bthere['’]s\b/gi, ['there is']],
];

const terse: StyleRules = {
  greeting: [''],
  tail: [],
  tailRate: 0,
  canned: {
    confirm_yes: ['Yes.', 'Yes, go ahead.', 'Go ahead.'],
    confirm_no: ['No.', "No, don't."],
    accept_transfer: ['Yes, transfer me.', 'Fine, transfer me.'],
    refuse_transfer: ['No transfer. Just help me here.', 'No. Handle it here.'],
    unknown: ["Don't have that.", "Don't know."],
    wait: ['Ok.', 'Fine.'],
    ack: ['Ok.', 'I see.'],
    closing: ['Thanks.', "Thanks, that's all."],
  },
  reveal: (facts, random, opening) => {
    if (facts.length === 1 && !opening && random.next() < 0.5) return `${facts[0]?.value ?? ''}.`;
    return `${facts.map((f) => `${capitalise(f.label)}: ${f.value}`).join(', ')}.`;
  },
  free: (text, random) => {
    const kept = sentences(text).filter(
      (s, i, all) =>
        all.length === 1 || !/^(hi|hello|hey|good (morning|afternoon|evening)|thanks?|thank you|i hope)\b/i.test(s) || /\uE000/.test(s),
    );
    let out = substitute(
      kept.join(' '),
      [
        [/\bI would like to\b/gi, ['I want to']],
        [/\bI['’]d like to\b/gi, ['I want to']],
        [/\bI would like\b/gi, ['I want']],
        [/\bI['’]d like\b/gi, ['I want']],
        [/\bcould you\b/gi, ['can you']],
        [/\b(?:please|kindly),?\s+/gi, ['']],
        [/,?\s+please\b/gi, ['']],
        [/\b(?:really|actually|basically|just|very)\s+/gi, ['']],
        // No subject where the verb says enough: "I was charged twice" → "Charged twice".
        [/(?<=^|[.!?]\s)I (?:was|am|'m|’m) /g, ['']],
        [/(?<=^|[.!?]\s)I (?=(?:want|need|got|have|wanted|tried)\b)/g, ['']],
        ...CONTRACT,
      ],
      random,
    );
    out = out.replace(/\bthe (?=[a-z])/gi, (match) => (random.next() < 0.5 ? '' : match));
    return capitaliseSentences(out);
  },
  finish: (text, random) => (random.next() < 0.6 ? replaceFinalStop(text, '') : text),
};

const verbose: StyleRules = {
  greeting: [
    'Hello there, and thank you for taking the time to help me today.',
    "Hi! I hope you're having a good day so far.",
    "Good day! I'm sorry to bother you, but I was hoping you could help me with something.",
  ],
  tail: [
    'I really appreciate your help with this.',
    'Thank you so much for your patience with me.',
    'Please let me know if you need anything else from me.',
    "Thanks again, it's very kind of you.",
  ],
  tailRate: 0.8,
  canned: {
    confirm_yes: [
      'Yes, that all sounds right to me, so please do go ahead with it. Thank you for checking with me first.',
      'Yes, absolutely, that is exactly what I was hoping for. Please go ahead whenever you are ready.',
    ],
    confirm_no: [
      "Actually, no. Thank you for checking, but I'd rather you didn't go ahead with that change after all.",
      "Oh, no, thank you, I don't think I want that. Please leave everything as it is for now.",
    ],
    accept_transfer: [
      'Yes, that would be wonderful, please do transfer me. Thank you for arranging it.',
      "Oh yes, if that's the best way to get this sorted, please transfer me. Thank you.",
    ],
    refuse_transfer: [
      "Oh, I'd really rather not be transferred, if it's all the same to you. I've explained everything here already, so I'd much prefer to sort it out with you.",
      "That's kind of you to offer, but I'd prefer not to be transferred. Could we please try to finish this here together?",
    ],
    unknown: [
      "Oh, I'm so sorry, I'm afraid I don't have that information with me at the moment.",
      "I'm terribly sorry, but I really don't have that to hand. I wish I could be more helpful.",
    ],
    wait: [
      "Of course, please take all the time you need. I'm happy to wait.",
      "No problem at all, I'll wait right here while you look into it.",
    ],
    ack: ['I see, thank you for explaining that so clearly.', "Oh, I see. That's very helpful to know, thank you."],
    closing: [
      "Thank you so much, that's everything I needed today. I really appreciate how helpful you've been.",
      "That's wonderful, thank you. You've been a great help, and that's all I needed.",
    ],
  },
  reveal: (facts, random, opening) => {
    const body = `${capitalise(list(facts.map((f) => `my ${f.label} is ${f.value}`)))}.`;
    if (opening) return prefixSentence('Just so you have it,', body);
    return `${random.pick(['Of course!', 'Sure, happy to help with that.', 'Certainly.'])} ${body}`;
  },
  free: (text, random, kind) => {
    let out = substitute(
      text,
      [
        [/\bI want\b/g, ['I would really like', 'I would very much like']],
        [/\bI need\b/g, ['I really need']],
        [/\bcan you\b/gi, ['would you be able to', 'could you possibly']],
      ],
      random,
    );
    if (kind === 'request') {
      out = `${out} ${random.pick([
        "I'm glad I finally have a moment to sort this out.",
        'I wanted to get in touch about it as soon as I could.',
        "I've been meaning to deal with this for a few days now.",
      ])}`;
    } else {
      out = prefixSentence(random.pick(['Oh, and one more thing:', 'If I may add something,', 'Also, while I have you,']), out);
    }
    return out;
  },
};

const impatient: StyleRules = {
  greeting: ['', 'Look.', "Okay, I'm in a hurry.", 'Hi. Quick one.'],
  tail: ['Please hurry.', 'Can we speed this up?', "I don't have all day.", 'How long is this going to take?', 'Quickly, please.'],
  tailRate: 0.5,
  canned: {
    confirm_yes: ['Yes, just do it.', 'Yes! Go ahead.', 'Yes, yes. Please just get it done.'],
    confirm_no: ["No! Don't do that.", "No. Don't change anything."],
    accept_transfer: ['Yes, transfer me now.', 'Fine, transfer me. Quickly.'],
    refuse_transfer: ["No, don't transfer me! Just fix it.", "No transfers. I don't have time for that. Just help me here."],
    unknown: ["I don't have that! Can we move on?", 'No idea. Can you do it without that?'],
    wait: ['Okay, but please be quick.', 'Fine. Hurry, please.'],
    ack: ['Okay. And?', 'Fine. Go on.'],
    closing: ['Finally. Thanks.', "Good. That's all."],
  },
  reveal: (facts, random, opening) => {
    if (facts.length === 1 && !opening && random.next() < 0.5) return `It's ${facts[0]?.value ?? ''}.`;
    return `${facts.map((f) => `${capitalise(f.label)}: ${f.value}`).join('. ')}.`;
  },
  free: (text, random) =>
    substitute(
      text,
      [
        [/\bI would like\b/gi, ['I need']],
        [/\bI['’]d like\b/gi, ['I need']],
        [/\bI want\b/g, ['I need']],
        [/\bcould you\b/gi, ['can you just']],
        [/\bwould you\b/gi, ['can you']],
        ...CONTRACT,
      ],
      random,
    ),
  finish: (text, random) => (random.next() < 0.6 ? replaceFinalStop(text, '!') : text),
};

const nonNative: StyleRules = {
  greeting: ['Hello,', 'Hello, good day.', 'Dear support,'],
  tail: ['Thank you very much.', 'Please help me.', 'Thanks for your help.'],
  tailRate: 0.5,
  canned: {
    confirm_yes: ['Yes, is correct. Please do it.', 'Yes, please do this.', 'Yes, I agree, please go ahead.'],
    confirm_no: ['No, please do not do this.', 'No, I do not want this change.'],
    accept_transfer: ['Yes, please transfer me.', 'Yes, is okay, please transfer.'],
    refuse_transfer: ['No, please, I do not want transfer. You help me, please.', 'No transfer please. I want to finish here with you.'],
    unknown: ['Sorry, I do not have this information.', 'Sorry, this I do not know.'],
    wait: ['Okay, thank you. I wait.', 'Okay, no problem.'],
    ack: ['Okay, I understand. Thank you.', 'Okay, is clear.'],
    closing: ['Thank you very much, this is all.', 'Okay, thank you, is all I need.'],
  },
  reveal: (facts, random, opening) => {
    const lead = opening ? '' : random.pick(['Yes,', 'Okay,', '']);
    // Half the time without "my": "E-mail address is …", the article-less habit.
    const body = list(facts.map((f) => (random.next() < 0.5 ? `my ${f.label} is ${f.value}` : `${f.label} is ${f.value}`)));
    return lead === '' ? `${capitalise(body)}.` : `${lead} ${body}.`;
  },
  free: (text, random) => {
    let out = substitute(
      text,
      [
        ...EXPAND,
        [/\bI would like to\b/gi, ['I want to']],
        [/\bI would like\b/gi, ['I want']],
        [/\btwice\b/gi, ['two times']],
        [/\bcould you\b/gi, ['can you please']],
        [/\binformation\b/gi, ['informations']],
        [/\bas soon as possible\b/gi, ['fast as possible']],
      ],
      random,
    );
    // Leave out some articles: the commonest trace of a first language without them.
    out = out.replace(/\b(the|a|an) (?=[a-z])/gi, (match) => (random.next() < 0.45 ? '' : match));
    return capitaliseSentences(out);
  },
};

const LOOSE_TERMS: readonly Substitution[] = [
  [/\bverification code\b/gi, ['code number they sent me', 'number from the text message']],
  [/\be-?mail address\b/gi, ['email', 'email address']],
  [/\bsubscription\b/gi, ['subscription thing', 'plan thing']],
  [/\breservation\b/gi, ['booking', 'reservation thing']],
  [/\buser id\b/gi, ['user ID thing', 'login name']],
  [/\bpayment method\b/gi, ['way I pay', 'card or whatever I pay with']],
];
// Not the head of a compound ("account holder", "order number"): a hedge there splits a phrase in two.
const HEDGED_TERMS =
  /\b(plan|account|refund|charge|renewal|order|invoice|bill|booking|flight|cabin|baggage|insurance|membership|upgrade|downgrade|exchange|return|gift card|credit card)\b(?!\s+(?:holder|number|id|history|details|owner|name)\b)/i;

const lowTech: StyleRules = {
  greeting: [
    "Hello, I'm not very good with these things, so please bear with me.",
    "Hi there, I hope I'm in the right place for this.",
    "Hello. Sorry, I don't really know how this chat works.",
  ],
  tail: ['I hope that makes sense.', "Sorry if I'm not explaining it well.", "I'm not sure I'm saying this right."],
  tailRate: 0.4,
  canned: {
    confirm_yes: ['I think so, yes. Please go ahead.', "Yes, I think that's right... please go ahead."],
    confirm_no: ["Oh, no, I don't think I want that. Please don't change anything.", 'Um, no, please leave it as it is.'],
    accept_transfer: ['Oh, yes, I think that would be best. Please transfer me.', "Yes please, if that's the right thing to do."],
    refuse_transfer: [
      "Oh no, please don't send me somewhere else, I'll only get lost. Can you help me here?",
      "I'd rather stay here, if that's alright. I don't want to be transferred around.",
    ],
    unknown: ["Oh dear, I don't know where I'd find that. I don't have it, sorry.", "I'm not sure what that is, sorry. I don't have it."],
    wait: ["Okay, I'll wait here. I hope I don't need to press anything.", "Alright, I'll just wait then."],
    ack: ['Oh, I see. Thank you for explaining.', 'Okay... I think I follow. Thank you.'],
    closing: ["Oh good, I think that's everything. Thank you for being so patient with me.", 'Thank you, dear. I think that was all.'],
  },
  reveal: (facts, random, opening) => {
    const loose = facts.map((f) => ({ ...f, label: substitute(f.label, LOOSE_TERMS, random) }));
    const body = list(loose.map((f) => `my ${f.label} is ${f.value}`));
    if (opening) return `${capitalise(body)}, in case you need it.`;
    return random.pick([`I think ${body}.`, `Um, ${body}. Is that the right one?`, `${capitalise(body)}, if I'm reading it right.`]);
  },
  free: (text, random) => {
    let out = substitute(text, LOOSE_TERMS, random);
    // Hedge the first billing or travel term the line uses, once: unsure, not incoherent.
    out = out.replace(
      HEDGED_TERMS,
      (term) =>
        `${term} (${random.pick(["I think that's what it's called", 'not sure that is the right word', 'or whatever it is called'])})`,
    );
    const parts = sentences(out);
    const first = parts[0];
    if (first !== undefined && random.next() < 0.5) {
      // "I think" only before a statement about oneself ("I think I was charged …"), not before a plea.
      const fillers = /^(?:I|My)\b/.test(first) ? ['Um,', 'So, um,', 'I think'] : ['Um,', 'So, um,', 'Oh,'];
      parts[0] = prefixSentence(random.pick(fillers), first);
    }
    return parts.join(' ');
  },
};

const neutral: StyleRules = {
  greeting: [''],
  tail: [],
  tailRate: 0,
  canned: NEUTRAL_CANNED,
  reveal: (facts) => neutralReveal(facts),
  free: (text) => text,
};

const RULES: Readonly<Record<Style, StyleRules>> = {
  neutral,
  terse,
  verbose,
  impatient,
  non_native: nonNative,
  low_tech_literacy: lowTech,
};

/** The neutral default of a line without facts (the scripted user's neutral text). */
export function neutralText(kind: CannedKind | 'reveal', facts: readonly LineFact[] = []): string {
  if (kind === 'reveal') return neutralReveal(facts);
  return NEUTRAL_CANNED[kind][0] ?? '';
}

/** Every fact value of the lines, and every fact-like span of their neutral text. */
function requiredSpans(lines: readonly StyleLine[]): string[] {
  return lines.flatMap((line) => [
    ...line.facts.map((f) => f.value),
    ...factSpans(
      line.text,
      line.facts.map((f) => f.value),
    ),
  ]);
}

function renderOne(rules: StyleRules, line: StyleLine, random: Random, opening: boolean): string {
  const values = line.facts.map((f) => f.value);
  if (line.kind === 'reveal' && line.facts.length > 0) return rules.reveal(line.facts, random, opening);
  if (isCanned(line.kind) && values.every((v) => !line.text.includes(v)) && factSpans(line.text).length === 0) {
    return random.pick(rules.canned[line.kind]);
  }
  if (line.kind === 'request' || line.kind === 'beat') {
    const held = hold(line.text, values);
    return release(held, rules.free(held.text, random, line.kind));
  }
  // A canned kind whose text carries a fact (not expected): keep the neutral wording.
  return line.text;
}

/** A 32-bit seed from several parts (FNV-1a): one per episode, turn, style, … */
export function mixSeed(...parts: readonly (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u241f')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Options of {@link renderMessage}. */
export interface RenderOptions {
  /** The same seed, style and lines give the same text. */
  seed: number;
  /** The customer's first message: the style's greeting goes before it. */
  opening?: boolean;
}

/**
 * One customer message in a style: each line in the style's wording, the style's greeting
 * before an opening, and now and then the style's closing remark. Facts are written verbatim;
 * should a rule ever lose one, the line is written in its neutral text instead.
 */
export function renderMessage(style: Style, lines: readonly StyleLine[], options: RenderOptions): string {
  const rules = RULES[style];
  const random = seededRandom(mixSeed(options.seed, style));
  const parts = lines.map((line) => {
    const text = renderOne(rules, line, random, options.opening === true);
    const required = requiredSpans([line]);
    return required.every((span) => text.includes(span)) ? text : line.text;
  });
  const last = lines.at(-1)?.kind;
  if (options.opening) {
    const greeting = random.pick(rules.greeting);
    if (greeting !== '') parts.unshift(greeting);
  }
  // A closing line is its own ending; pressing or thanking after it would be a second one.
  if (last !== undefined && last !== 'closing' && last !== 'wait' && last !== 'ack') {
    const tail = maybe(random, rules.tailRate, rules.tail);
    if (tail !== '') parts.push(tail);
  }
  const message = parts
    .filter((part) => part.trim() !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!rules.finish) return message;
  const required = requiredSpans(lines);
  const held = hold(message, required);
  const finished = release(held, rules.finish(held.text, random));
  return required.every((span) => finished.includes(span)) ? finished : message;
}

/** One line on its own: {@link renderMessage} with a single line. */
export function renderLine(style: Style, line: StyleLine, options: RenderOptions): string {
  return renderMessage(style, [line], options);
}
