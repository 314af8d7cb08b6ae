/**
 * Canonical words for the decider's patterns: what a customer typed, put in the words the
 * lexicons are written in. Runs on text already lower-cased by `normalizeText`. It folds
 * stretched letters ("humaaan", "pleeease"), common chat abbreviations ("gimme", "ur", "pls",
 * "sum1"), symbols and emoji, and corrects one typing slip (a letter dropped, doubled or swapped,
 * or replaced by a neighbouring key or a vowel by a vowel) in the key nouns and verbs of hand-off,
 * safety and the reserved topics ("humna", "supervisr", "tranfer").
 * The output may differ in length from the input: callers keep the original text for evidence.
 */
import { memoByText } from './memo.js';

/** Chat spellings and their words, whole-word only. */
const ABBREVIATIONS: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'u=you ya=you yu=you ur=your yr=your r=are pls=please plz=please plse=please pleas=please ' +
    'pleez=please ppl=people peeps=people sum1=someone some1=someone smone=someone any1=anyone ' +
    'ne1=anyone gimme=give_me lemme=let_me wanna=want_to gonna=going_to gotta=got_to hafta=have_to ' +
    'hooman=human hoomin=human hoomins=humans humin=human humen=humans hoomans=humans hmn=human ' +
    'humn=human huma=human prsn=person mgr=manager supv=supervisor repr=representative cust=customer ' +
    "svc=service rn=right_now asap=asap im=i'm ive=i've cant=can't dont=don't wont=won't didnt=didn't " +
    "doesnt=doesn't isnt=isn't arent=aren't wouldnt=wouldn't couldnt=couldn't youre=you're " +
    "theyre=they're thats=that's whats=what's theres=there's idk=i_don't_know cuz=because coz=because " +
    'bc=because b4=before thx=thanks tx=thanks ty=thank_you msg=message acct=account acc=account ' +
    'srsly=seriously k=ok kk=ok okk=ok okie=ok tho=though kys=kill_myself unalive=kill ' +
    'unaliving=killing sewerslide=suicide kms=kill_myself thru=through thro=through ' +
    'sumone=someone sumbody=somebody smb=somebody nobdy=nobody noone=no_one plox=please'
  )
    .split(' ')
    .map((pair) => pair.split('=') as [string, string])
    .map(([k, v]) => [k, v.replace(/_/g, ' ')]),
);

/**
 * The key words, corrected within one slip. A token of four letters or more is corrected only to
 * a key word with the same first letter, and a four-letter token only to a longer key word, so
 * short everyday words ("bill", "talk", "walk") are never rewritten.
 */
const KEY_WORDS = (
  'human humans person people manager supervisor representative agent operator someone somebody ' +
  'anyone anybody speak transfer transferred connect escalate complaint grievance lawyer solicitor ' +
  'attorney lawsuit proceedings suicide suicidal myself ambulance breathing unconscious collapsed ' +
  'seizure customer service support specialist colleague employee please actual really overdose ' +
  'formal official officially formally callback legal advice action filing against courts counsel ' +
  'instructed arbitration dissatisfaction served papers recorded choking breathe stroke fainted ' +
  'overdosed forever anymore written giving scared ending disappear bought thinking connected route ' +
  'staff member phone arrange request actually think computer sleep never about there number ' +
  'suppose surely faster having worry talking speaking'
).split(' ');
/** Real words one slip away from a key word: never "corrected". */
const REAL_WORDS = new Set(
  (
    'humane prison parson persona steak sneak speck spear spell spent count courts layer regal sawyer ' +
    'agents urgent compliant someones anyones proceeding connects agency agenda pleased pleases ' +
    'please peoples actually really reality realty formula formals officials seizures customs ' +
    'customers services served server humor humour humid humble taking tasking sneaking manages ' +
    'managed prone newer theme therm thin stiff commuter halving brought shared snared scored scaled ' +
    'cooking cloaking advise firing fining filming serves serve pampers recorder format employer ' +
    'employed rally spoken speaker tailing talkie three thank thick thing phony stuff staffs steep ' +
    'sleet sheep those these their abort aboard faster fasten member number never auction severed ' +
    'swerved counts filling failing paper record records recoded strike scarred sacred scare breath ' +
    'breaths written sending bough complain complains complained formality transfers operators ' +
    'managers speaks sneaky talkin speakin'
  ).split(' '),
);

const byInitial = new Map<string, string[]>();
for (const w of KEY_WORDS) byInitial.set(w[0]!, [...(byInitial.get(w[0]!) ?? []), w]);

/** Whether `a` and `b` are at most one edit apart (insert, delete, replace, or swap two neighbours). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // replaced
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swapped
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

// QWERTY neighbours: a replaced letter is a slip only when the finger could have hit the other key.
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const NEIGHBOURS = new Map<string, string>();
ROWS.forEach((row, r) => {
  [...row].forEach((ch, i) => {
    const near = [row[i - 1], row[i + 1], ROWS[r - 1]?.[i], ROWS[r - 1]?.[i + 1], ROWS[r + 1]?.[i], ROWS[r + 1]?.[i - 1]];
    NEIGHBOURS.set(ch, near.filter((c): c is string => c !== undefined).join(''));
  });
});

const VOWELS = 'aeiouy';

/** A typing slip: a letter dropped, doubled or swapped, or replaced by a neighbouring key (or a vowel by a vowel). */
function isTypingSlip(token: string, key: string): boolean {
  if (!withinOneEdit(token, key)) return false;
  if (token.length !== key.length) return true;
  const i = [...token].findIndex((ch, k) => ch !== key[k]);
  if (i < 0) return true;
  if (token[i + 1] === key[i] && token[i] === key[i + 1]) return true;
  // Or a vowel for a vowel, the commonest spelling slip ("speek", "representitive").
  if (VOWELS.includes(token[i]!) && VOWELS.includes(key[i]!)) return true;
  return NEIGHBOURS.get(key[i]!)?.includes(token[i]!) ?? false;
}

const corrected = new Map<string, string>();

/** The key word a token is a slip of, or the token itself. */
const KEY_SET = new Set(KEY_WORDS);
// "escalated", "agents", "connecting": an inflection of a key word is a word, not a slip.
const INFLECTED = /(?:s|es|d|ed|ing|er|ers|ly|ment|ion)$/;
const isInflection = (token: string): boolean => {
  const m = INFLECTED.exec(token);
  if (!m) return false;
  const root = token.slice(0, m.index);
  return KEY_SET.has(root) || KEY_SET.has(`${root}e`) || KEY_SET.has(root.replace(/(.)\1$/, '$1'));
};

function correct(token: string): string {
  if (token.length < 4) return token;
  // Every token read before is remembered, the ones left as they are too: the checks below cost more than the look-up.
  const known = corrected.get(token);
  if (known !== undefined) return known;
  const hit = correctAfresh(token);
  if (corrected.size >= 50_000) corrected.clear();
  corrected.set(token, hit);
  return hit;
}

function correctAfresh(token: string): string {
  if (KEY_SET.has(token) || REAL_WORDS.has(token) || !/^[a-z]+$/.test(token) || isInflection(token)) return token;
  // A key word that only adds a letter at the end ("court" → "courts") is the same word inflected.
  // A four-letter token is only a slip of a longer key word ("aget", "nevr"), never of another four-letter one.
  return (
    (byInitial.get(token[0]!) ?? []).find((k) => (token.length >= 5 || k.length >= 5) && isTypingSlip(token, k) && !k.startsWith(token)) ??
    token
  );
}

// Letters stretched for emphasis: three or more of one letter become one ("sooo", "humaaan").
const STRETCHED = /([a-z])\1{2,}/g;
// Emoji, pictographs and symbols carry no words; "w/" is "with", "2"/"4" between words are "to"/"for".
const SYMBOLS = /[^\p{L}\p{N}\s'".,!?;:()\-/&@#$%*+=<>]/gu;

/** The canonical form of a lower-cased text: abbreviations spelled out, stretches folded, slips corrected. */
export const canonicalize: (norm: string) => string = memoByText(canonicalizeAfresh);

function canonicalizeAfresh(norm: string): string {
  // Each pass only where it can change something: most messages are plain ASCII words.
  let text = RARE_CHARS.test(norm) ? norm.replace(SYMBOLS, ' ') : norm;
  // A stretched run folds to one letter ("humaaan", "dieee"), or to two where that makes a known word ("gimmme").
  if (STRETCHED.test(text)) {
    text = text.replace(/[a-z]+/g, (w) => {
      const one = w.replace(STRETCHED, '$1');
      if (one === w) return w;
      const two = w.replace(STRETCHED, '$1$1');
      return ABBREVIATIONS[two] !== undefined || KEY_SET.has(two) ? two : one;
    });
  }
  if (text.includes('w/')) text = text.replace(/\bw\/\s*/g, 'with ');
  // "a reel person": a real word, so no slip, but a misspelling before a person.
  if (text.includes('reel '))
    text = text.replace(
      /\breel (?=(?:live |actual )?(?:person|persons|people|human|humans|one|agent|someone|somebody|voice|man|woman)\b)/g,
      'real ',
    );
  if (/\s[24]\b/.test(text)) {
    text = text
      .replace(/\b(talk|speak|chat|go|get|over|through|back|listen)\s+2\b/g, '$1 to')
      .replace(/\b(ask|asking|looking|waiting|wait|here)\s+4\b/g, '$1 for');
  }
  return text.replace(TOKEN, canonicalToken);
}

const TOKEN = /[a-z0-9]+(?:'[a-z]+)?/g;
const canonicalToken = (token: string): string => ABBREVIATIONS[token] ?? correct(token);
// Characters the symbol pass removes: anything outside printable ASCII, and the rare ASCII symbols.
const RARE_CHARS = /[^\x20-\x7e\n]|[~^_|\\[\]{}`]/;
