/**
 * The lexicon of what a conversation is about: safety, regulated topics, frustration, tool
 * outputs that mean "cannot", and the words that make up an intent. Patterns run on
 * normalized clauses (see `normalizeText` in `handoff-lexicon.ts`).
 */
import { memoByText } from './memo.js';

const re = (source: string) => new RegExp(source);

const RELATION =
  '(?:mother|mom|mum|mommy|mummy|mama|father|dad|daddy|papa|husband|wife|partner|spouse|son|daughter|child|kid|baby|brother|sister|sibling|grandmother|grandma|granny|nan|nana|grandfather|grandpa|grandad|granddad|aunt|auntie|uncle|cousin|fianc[eé]e?|parent|parents|boyfriend|girlfriend|nephew|niece|stepfather|stepmother|stepdad|stepmom|stepmum|(?:mother|father|son|daughter|brother|sister)[\\s-]in[\\s-]law|best friend|friend|loved one|family member|grandson|granddaughter|grandchild|flatmate|housemate|roommate|carer|colleague|neighbou?r|landlord|lodger|tenant)';
// "passed" of a person, not of an exam or a car passing by.
const PASSED = 'passed(?!\\s+(?:the|my|an?|his|her|our|their|your|its|through|by|out|it|me|us|him|them|on to|along|over)\\b)';

// What a customer does with a complaint, when they call it formal or official.
const COMPLAINT_ACT =
  '(?:escalat\\w*|lodg\\w*|record\\w*|regist\\w*|raise|raised|raising|contest\\w*|object\\w*|disput\\w*|review\\w*|investigat\\w*|notice|protest|process|procedure|matter|issue|case|report|thing|complain\\w*|dissatisf\\w*)\\b';

// Who may have died: a relative (with or without "my"), the account holder, or he or she.
const BEREAVED = `(?:(?:my|our|his|her|their)\\s+)?(?:(?:late|dear|beloved|little|twin|only|best)\\s+)?(?:${RELATION}|(?:the\\s+)?account ?holder|he|she|they)`;

/** A regulated topic. `negatable`: "I'm not going to sue" takes it back; a death is not taken back. */
export interface TopicPattern {
  topic: 'complaint' | 'bereavement' | 'legal';
  re: RegExp;
  negatable: boolean;
  /** A cheap test every match needs (one of the words each alternative holds): `re` runs only where it passes. */
  pre?: RegExp;
  /** Not read on runs of neighbouring clauses (too costly there for what it adds). */
  clausesOnly?: boolean;
}

/** The verbs that tell a trade rather than a threat: "she is a lawyer", "works as a solicitor", "is like a lawyer". */
export const TRADE_VERB = "(?:is|was|were|are|'s|'m|am|as|be|being|became|become|like)";

/** Regulated topics: a human handles them whatever the agent could do. */
export const POLICY_TOPIC_PATTERNS: readonly TopicPattern[] = [
  {
    topic: 'complaint',
    negatable: true,
    // Every alternative below holds one of these words (checked over the corpora by test).
    pre: /\b(?:complain|ombuds|report|bureau|trading standards|grievance|official|formal|dissatisf|objection|head office|regulator|fca|ofcom|ofgem|cfpb|ftc|bbb|independent|external|outside|watchdog|adjudicator|arbiter)/,
    re: re(
      "\\b(?:(?:file|filing|filed|lodge|lodging|lodged|make|making|made|raise|raising|raised|submit|submitting|submitted|register|registering|open|opening|log|logging|put in|putting in|start|starting|escalate|escalating|issue|take out)\\s+(?:a|an|my|the|this|another|one more)?\\s*(?:formal|official|written|proper|serious)?\\s*complaint|(?:formal|official|written)\\s+complaint|(?:want|wish|would like|'d like|need|going|gonna|intend|plan|planning|have)\\s+to\\s+complain\\b|complain(?:ing)?\\s+to\\s+(?:your|the)\\s+(?:manager|management|company|ceo|head office|regulator|ombudsman|authorities|bbb|ftc)|complaints?\\s+(?:department|procedure|process|team|form|line|policy|reference)|ombuds(?:man|person)|report(?:ing)?\\s+(?:you|this|your company|your business|it|them)\\s+to\\s+(?:the\\s+)?(?:bbb|better business bureau|ftc|cfpb|fca|fcc|regulator|authorities|consumer|trading standards|attorney general|dot|department of transportation)|better business bureau|trading standards|grievances?|(?:independent|external|outside) (?:body|adjudicator|arbiter|watchdog|complaints? (?:body|scheme|service))|(?:telecoms?|telecommunications|energy|financial|consumer|industry) (?:regulator|watchdog|ombudsman)|watchdog|complain(?:t|ing)?\\s+(?:officially|formally|in writing)|(?:official|formal)(?:ly)?\\s+complain|(?:log|logging|register|registering|record|recording|escalat\\w*|treat|raise|submit|lodge|file|make|put|open|take)\\s+(?:this|it|that|my (?:issue|problem|case|concern))\\s+(?:down\\s+)?(?:as|in)\\s+(?:a|an|my)?\\s*(?:formal\\s+|official\\s+)?complaint|(?:reference|ref|case)\\s+(?:number\\s+|no\\s+|id\\s+)?(?:for|of|on)\\s+(?:my|the|this)\\s+complaint|complaint\\s+(?:reference|number|ref|case|id)|make\\s+(?:this|it)\\s+official|(?:dissatisfaction|complaint|grievance|objection)\\b[^.]{0,30}\\bon\\s+(?:the\\s+)?record|formal\\s+(?:objection|protest)|(?:how|where|who)\\s+(?:do|can|could|should)\\s+(?:i|we)\\s+complain|(?:on file|on record|down)\\s+as\\s+(?:a|an|my)\\s+(?:formal\\s+|official\\s+)?complaint|(?:writ(?:e|ing)|report\\w*|escalat\\w*|complain\\w*|go(?:ing)?|take\\s+(?:this|it))\\s+to\\s+the\\s+(?:regulator|ombudsman|fca|ofcom|ofgem|cfpb|ftc|bbb)|head office|(?:logged|recorded|registered|treated|filed|noted|lodged)\\s+(?:officially\\s+|formally\\s+)?as\\s+(?:a|an|my)\\s+(?:formal\\s+|official\\s+)?complaint)",
    ),
  },
  {
    topic: 'legal',
    negatable: true,
    // Every alternative below holds one of these words (checked over the corpora by test).
    pre: /\b(?:lawyer|attorney|solicitor|barrister|counsel|legal|damages|court|proceeding|instructed|to act|retained|letter before|pre-action|tribunal|arbitration|papers|claim|law|litigat|class|cease|breach|su(?:e|ed|ing)\b)/,
    re: re(
      `\\b(?<!\\b${TRADE_VERB}\\s+(?:(?:a|an|the)\\s+)?)(?:lawyers?|attorneys?|solicitors?|barristers?)\\b(?!\\s+(?:friend|myself|by (?:profession|trade))\\b|\\s+(?:handles|manages|looks after|takes care of|receives|collects|opens|pays|forwards)\\s+(?:my|our|the)\\s+(?:post|mail|bills?|paperwork|invoices?))|\\b(?:legal counsel|my counsel|legal\\s+(?:action|team|counsel|department|advice|proceedings|route|steps|representation|representative|rep|recourse|matter|claim|case|remedy|remedies)(?!\\s+(?:at|of|in|from)\\s+(?:my|our)\\s+(?:company|firm|work|employer|office|business)|\\s+(?:needs|requires|wants|asked for)\\b)|(?:seek|seeking|claim|claiming|sue for|suing for|pursue|pursuing)\\s+(?:compensation\\s+(?:and|or)\\s+)?damages|through the courts?|(?:issue|issuing|file|filing|start|starting|commence|commencing|begin|beginning|initiate|initiating|bring|bringing|take|taking)\\s+(?:legal\\s+|court\\s+)?proceedings|notice of (?:legal\\s+)?proceedings|proceedings against|instructed (?:counsel|a solicitor|a lawyer|lawyers|solicitors|a (?:law |legal )?firm|(?:a |my )?legal representatives?)|(?:firm|solicitors?|lawyers?|legal representatives?) to act (?:for|on behalf of) (?:me|us)\\b|retained (?:a\\s+)?(?:lawyer|solicitor|attorney|counsel)|letter before (?:action|claim)|pre-action|tribunal|arbitration|(?:take|taking|pursue|pursuing|go|going|proceed|proceeding)\\b[^.?!]{0,20}\\blegally\\b|county court|served (?:with )?(?:legal |court )?papers|serve (?:you|your company) (?:with )?papers|(?:file|filing|issue|issuing|lodge|lodging|make|bring|bringing)\\s+(?:a\\s+)?claim against|law\\s?suits?|litigation|litigate|class[\\s-]action|small[\\s-]claims|cease and desist|breach of contract|court (?:case|order|action|claim|proceedings|date|summons)(?![^.]{0,40}\\bjury\\b)|(?:in|to|into) court|suing|sued|sue(?=\\s+(?:you|u|your|y'all|this|the|them|him|her|everyone|everybody|for|over|if|unless)\\b)|(?:will|'ll|gonna|going to|to|could|can|should|might|would|'d)\\s+sue\\b)`,
    ),
  },
  {
    topic: 'bereavement',
    negatable: false,
    pre: /\b(?:pass|died|dead|killed|deceas|death|funeral|burial|cremation|executor|executrix|estate|loss|lost|late|bereave|condolence|probate|widow|longer)/,
    re: re(
      `\\b(?:pass(?:ed|ing)\\s+away|(?:has|have|had|just|recently|sadly|suddenly)\\s+${PASSED}|${RELATION}(?:\\s+\\w+){0,3}?\\s+(?:died|${PASSED}|is dead|was killed|got killed|has died|is deceased)|(?:he|she)\\s+(?:just\\s+|recently\\s+|suddenly\\s+|sadly\\s+)?(?:died|passed away)|(?:death|funeral|burial|cremation)\\s+of\\s+(?:my|our|his|her|their)\\s+(?:late\\s+|dear\\s+|beloved\\s+)?(?:${RELATION}|account holder)|executrix|\\w+'s estate|(?:account ?holder|policy ?holder|he|she|they)\\s+(?:has\\s+|have\\s+|had\\s+)?(?:just\\s+|recently\\s+|sadly\\s+|suddenly\\s+)?(?:died|passed away|passed on(?!\\s+(?:the|a|an|my|your|this|that|it|to|his|her|our|their|some|any|what|everything)\\b))|report(?:ing)?\\s+(?:a|the)\\s+death|(?:loss|passing)\\s+of\\s+(?:my|our|his|her|their)\\s+${RELATION}|lost\\s+(?:my|our)\\s+(?:dear\\s+|beloved\\s+)?${RELATION}\\b(?!['\\w])|my\\s+late\\s+${RELATION}|bereave\\w*|funeral|deceased|death certificate|condolence\\w*|probate|widow(?:ed|er)?|no longer with us|death in (?:the|my|our) family|(?:executor|estate) of)`,
    ),
  },
  {
    // A complaint made without the word: "I want it officially recorded", "escalate this formally",
    // "report your company to Ofcom", "the next stage of your procedure", "I want this investigated
    // and a written outcome", "put it on record", "I'm reporting misconduct by one of your staff".
    topic: 'complaint',
    negatable: true,
    // Every alternative below holds one of these words (checked over the corpora by test).
    pre: /\b(?:formal|official|ofcom|ofgem|ofwat|cisas|ombuds|regulator|adjudicat|adr\b|dispute|deadlock|stage|charter|code of practice|complain|record|on file|investigat|looked into properly|written|in writing|dissatisf|report|escalat|notice of|fcc|ftc|fca|cfpb|bbb|reclamation)/,
    re: re(
      [
        `\\b(?:formal(?:ly)?|official(?:ly)?)\\b(?:\\s+\\w+){0,3}?\\s+${COMPLAINT_ACT}`,
        `\\b${COMPLAINT_ACT}(?:\\s+\\w+){0,3}?\\s+(?:formal(?:ly)?|official(?:ly)?)\\b`,
        '\\b(?:report|reporting|escalate|escalating|take|taking|write|writing|go|going|complain|complaining|refer|forward)\\b[^.?!]{0,40}\\b(?:ofcom|ofgem|ofwat|cisas|ombudsm[ae]n|ombudsperson|the regulator|independent adjudicator|adjudicator|adr|dispute resolution)\\b',
        '\\b(?:independent )?(?:dispute resolution|adjudicat\\w+) scheme\\b|\\bdeadlock letter\\b|\\bcisas\\b',
        '\\b(?:next|second|final|2nd) stage\\b[^.?!]{0,30}\\b(?:procedure|process)\\b|\\bstage (?:one|two|1|2) (?:answer|response|of)\\b',
        '\\b(?:customer charter|code of practice|complaints? (?:handling|code|procedure))\\b',
        '\\b(?:want|put|get|have|need|like)\\b[^.?!]{0,20}\\b(?:it|this|that)\\b[^.?!]{0,12}\\bon (?:record|file)\\b|\\bput (?:it|this) on (?:the )?record\\b|\\bthere to be a record\\b',
        '\\b(?:want|demand|request|expect|need|like)\\b[^.?!]{0,30}\\b(?:investigat\\w*|looked into properly)\\b',
        '\\b(?:written|formal) (?:response|outcome|explanation|apology|reply)\\b|\\b(?:response|outcome|explanation|apology|answer) in writing\\b|\\bput (?:it |this )?in writing that\\b',
        '\\b(?:register|registering|record|recording|express|expressing|note|noting)\\b[^.?!]{0,20}\\bdissatisf\\w*|\\bnotice of dissatisf\\w*',
        '\\breport(?:ing)? (?:misconduct|(?:an?|one of your|your) (?:shop |store )?(?:staff|employee|advisor|adviser|engineer|agent|salesman|member of staff))\\b',
        '\\bescalat\\w*\\b[^.?!]{0,20}\\b(?:to|through|under|with)\\b[^.?!]{0,15}\\b(?:procedure|process|compliance|customer relations|head of|senior management|charter|disputes?)\\b',
        // A complaint asked to be opened, noted or put somewhere: "I'd like a complaint opened about it",
        // "note it as a complaint", "put a complaint on the account", "a complaint raised against the
        // sales team", "written notice of complaint", "my complaint to the telecoms regulator".
        '\\b(?:a|my|the) complaint (?:opened|raised|logged|registered|filed|noted|recorded|started|made|put in|lodged)\\b',
        '\\b(?:note|noted|handle|handled|mark|marked|class|classed|count|counted|flag|flagged) (?:this |it |that )?(?:down )?as (?:a|an|my) (?:formal |official )?complaint\\b',
        '\\bput (?:a|my|in a) complaint (?:on|against|in|about)\\b|\\bnotice of (?:complaint|dispute)\\b|\\b(?:start|beginning) of (?:a|my) (?:formal )?complaint\\b',
        '\\bcomplaint to (?:the |your )?(?:\\w+ )?(?:regulator|ombudsman|ofcom|ofgem|fca|fcc|ftc|cfpb|bbb)\\b|\\bfil(?:e|ed|ing) with (?:the )?(?:fcc|ftc|ofcom|fca|cfpb|bbb|regulator|ombudsman)\\b',
        '\\bto (?:the |your )?complaints\\b(?! (?:about|from|of|that|i))|\\b(?:dissatisfaction|complaint) (?:recorded|noted|logged|registered) (?:against|on)\\b',
        '\\bescalat\\w*\\b[^.?!]{0,30}\\bas (?:a|an) (?:formal |official )?complaint\\b|\\b(?:official |formal )?reclamation\\b',
        '^(?:formal |official )?complaint$',
      ].join('|'),
    ),
  },
  {
    // A legal threat without the usual words: "I'm issuing a money claim online", "bringing a claim",
    // "the claim form is filled in", "an injunction", "a legal firm is representing me", "no win no fee",
    // "we'll let the judge decide", "your address for service of court documents".
    topic: 'legal',
    negatable: true,
    // Every alternative below holds one of these words (checked over the corpora by test).
    pre: /\b(?:claim|mcol|counter|service|serve|injunction|restraining|legal|no win|law|papers|judge|court|magistrat|against|llp|ico\b|action|litigation|solicitor|barrister|attorney)/,
    re: re(
      [
        // A claim against the company, never an insurance or an expense claim.
        '\\b(?:issu|fil|lodg|submitt?|start|prepar|draft|put)(?:e|es|ed|ing)?\\b[^.?!]{0,25}\\b(?:a |my |the )?(?:money|court) claims?\\b',
        '\\bbring(?:ing)? (?:a|my|the|this) claim\\b|\\bclaim (?:form|against (?:you|your|the company)|for (?:damages|breach))\\b|\\bmcol\\b|\\bcounter-?claim\\b|\\bgrounds for a claim\\b',
        '\\bclaim for (?:my |the |our )?loss(?:es)? (?:of business|of earnings|while|from|caused)\\b',
        '\\b(?:service of (?:court )?(?:documents|papers|proceedings)|accept service|serve (?:the|a|my) claim)\\b',
        '\\binjunction\\b|\\brestraining order\\b|\\blegal (?:redress|firm|letters?|adviser|advisor|insurance|expenses|people)\\b|\\bno win,? no fee\\b',
        '\\b(?:practi[sc]es|practicing|practising) law\\b|\\b(?:drafting|drafted|preparing) (?:the )?(?:papers|letters? before|claim)\\b|\\b(?:let|see you in front of|tell it to) the judge\\b',
        '\\b(?:go(?:es|ing)?|take (?:this|it|you)|bring (?:this|it)(?: matter)?) (?:to|before|in front of) (?:the |a )?(?:court|judge|magistrates?)\\b',
        '\\bfil(?:e|ing) against (?:you|your)\\b|\\bllp\\b|\\b(?:filed|complained|reported \\w+) (?:with|to) the ico\\b',
        // "a group action", "I'll let a judge decide", "I've issued a claim … you'll be served", "the
        // letter of claim", "sending the claim to the court".
        '\\b(?:group|class|collective) (?:action|litigation|claim)\\b|\\b(?:let|have) a judge decide\\b|\\b(?:in front of|before) a judge\\b',
        "\\b(?:issued|lodged) a claim\\b(?! (?:with|on|through) (?:my|the|our|your) (?:\\w+ )?insur)|\\b(?:you'll|you will|you're going to) be served\\b|\\bletter of claim\\b",
        '\\bclaim\\b[^.?!]{0,40}\\b(?:to|with|in|at) the (?:county |small claims )?court\\b',
        '\\b(?:solicitor|lawyer|barrister|attorney|law firm|legal team)\\b[^.?!]{0,60}\\b(?:writ(?:e|es|ing) to (?:you|u)|(?:be )?writing to you|on my behalf|take this on|chambers letterhead)\\b',
      ].join('|'),
    ),
  },
  {
    // A death told the way people tell it: "my mum isn't with us anymore", "she lost her fight with
    // cancer", "my mother's gone", "he took his own life", "our baby didn't make it", "we scattered
    // her ashes", "he's in the churchyard now", "we lost him to covid", "the registrar gave me a reference".
    topic: 'bereavement',
    negatable: false,
    clausesOnly: true,
    pre: /\b(?:with us|alive|living|around|here|gone|passed|peace|left us|took|claimed|cremat|burial|buried|memorial|wake|fight|battle|life|make it|peacefully|sleep|ashes|churchyard|crematorium|heaven|ground|cemetery|lost|killed|hospice|hospital|registrar|next of kin|lord|late|death|dead|die|estate)/,
    re: re(
      [
        `\\b${BEREAVED}\\)?(?:'s|'re|\\s+(?:is|s|was|are|were))\\s+(?:no longer|not|n't|nt)\\s+(?:with us|alive|living|around|here(?=\\s+(?:any\\s?more|now|with us)\\b))\\b`,
        `\\b${BEREAVED}\\)?\\s+(?:isn't|isnt|wasn't|aren't|is not)\\s+(?:with us|alive|living|around|here(?=\\s+(?:any\\s?more|now|with us)\\b))\\b`,
        `\\b${BEREAVED}\\)?(?:'s|\\s+(?:is|s|was))\\s+no longer\\s+(?:here|alive|living|with us)\\b`,
        // "he passed in October", "she passed at 34", "he passed on Sunday": passed, of a person, with when or how.
        `\\b(?:he|she|they)\\s+(?:just\\s+|recently\\s+|suddenly\\s+|sadly\\s+|peacefully\\s+)?passed(?=\\s+(?:in|at|last|after|from|of|yesterday|this|earlier|recently|suddenly|peacefully|over the weekend)\\b|\\s+on\\s+(?:\\d|the\\s+\\d|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\\s*[,.;!]|\\s*$)`,
        `\\b${BEREAVED}(?:'s|\\s+is|\\s+s)\\s+at peace\\b`,
        `\\b${BEREAVED}\\s+(?:has\\s+|have\\s+)?(?:sadly|peacefully)\\s+left us\\b|\\bleft us\\b[^.?!]{0,30}\\bafter (?:a |an )?(?:long |short |brief )?(?:illness|battle)\\b`,
        '\\b(?:accident|illness|cancer|covid|stroke|heart attack|crash|disease) (?:took|claimed) (?:my|our|him|her|them)\\b',
        `\\b${RELATION}'s (?:cremation|burial|memorial|wake)\\b`,
        `\\b${BEREAVED}(?:'s|\\s+is|\\s+has)\\s+(?:been\\s+)?gone\\b(?=\\s*(?:$|[,.;!?]|now\\b|since\\b|forever\\b|for good\\b|and\\b|\\d))`,
        '\\blost (?:her|his|their) (?:fight|battle|long battle|brave battle)\\b',
        '\\btook (?:his|her|their) (?:own )?life\\b',
        `\\b${BEREAVED}\\s+(?:didn't|did not|didnt) make it\\b`,
        '\\b(?:went|passed|died) (?:peacefully|in (?:his|her|their) sleep)\\b',
        '\\b(?:has|have|had) since passed\\b',
        '\\b(?:scattered|scattering|collect(?:ed|ing)?) (?:his|her|their|the) ashes\\b',
        "\\b(?:he|she|he's|she's|they're)\\s+(?:is\\s+|are\\s+|been\\s+)?in (?:the )?(?:churchyard|crematorium|heaven|ground|cemetery)\\b",
        '\\b(?:buried|cremated) (?:him|her|them|my|our)\\b',
        '\\b(?:his|her|the) (?:cremation|burial|memorial service)\\b',
        `\\b(?:we|i|mum|mom|dad|the family)\\s+lost\\s+(?:him|her|our\\s+${RELATION}|my\\s+${RELATION}|${RELATION})\\b(?=\\s+(?:to|in|at|on|last|this|when|after|suddenly|yesterday|today|recently|earlier)\\b|\\s*[,.;!]|\\s*$)`,
        '\\b(?:he|she) (?:was|got) killed\\b',
        "\\b(?:went|taken|admitted) into (?:the )?(?:hospice|hospital)\\b[^.?!]{0,40}\\b(?:never|didn't|did not|didnt) (?:came|come|make it) (?:home|out|back)\\b",
        '\\bregistrar\\b|\\bnext of kin\\b',
        // "went to be with the lord", "me mam's passed over", "she's passed", "lost his life", "the late
        // Ms Gray", "the date of death", "been dead for a week", "in the ground a fortnight", "didn't
        // make it" after an illness or an accident, a learner's "my father is die in March".
        '\\bwent to be with (?:the lord|god|jesus)\\b|\\bgone to (?:heaven|be with (?:the lord|god|jesus))\\b',
        `\\b${BEREAVED}(?:'s| has| is) passed(?: over| on)?\\b(?=\\s*(?:$|[,.;!?]|and\\b|in\\b|last\\b|my\\b))|\\bpassed over\\b`,
        "\\b(?:she's|he's|they've|she has|he has) passed\\b(?=\\s*(?:$|[,.;!?]|away\\b|on\\b|my\\b))",
        '\\blost (?:his|her|their) li(?:fe|ves)\\b|\\bthe late (?:mr|mrs|ms|miss|dr|sir|lady|lord)\\b|\\b(?:my|our|his|her) late (?:wife|husband|partner|mother|father|mum|mam|dad|son|daughter|brother|sister|gran|grandmother|grandfather|nan|friend|uncle|aunt)\\b',
        '\\b(?:at the )?date of death\\b|\\badministration of (?:the|his|her) estate\\b|\\bpersonal representative of\\b',
        "\\b(?:had|'d|has|have) been dead (?:for|since)\\b|\\bbeen in the ground\\b",
        "\\b(?:heart attack|stroke|accident|crash|surgery|operation|cancer|covid|illness)\\b[^.?!]{0,40}\\b(?:didn't|did not|didnt|never) make it\\b",
        `\\b${RELATION} (?:is|was) die(?:d)?\\b`,
        `\\b${RELATION} died\\b`,
      ].join('|'),
    ),
  },
  {
    // Ninth measurement: a complaint named by its paperwork or its channel — "a letter of complaint
    // to your CEO", "the name of your regulator? I'm reporting you", "a complaint opened", "the
    // complaint I'm making today", "report this company to the ICO", "raised with your compliance
    // team", "a final response letter", "someone independent to look at it".
    topic: 'complaint',
    negatable: true,
    pre: /\b(?:complain|regulator|ombuds|report|ico|information commissioner|ofcom|compliance|customer relations|executive|final response|independent|head of)/,
    re: re(
      [
        '\\b(?:letter of complaint|complaints? letter)\\b',
        "\\b(?:name of|who is|who's|whos|details (?:of|for)|contact (?:details )?(?:of|for)) (?:your|the) regulator\\b|\\b(?:pursue|pursuing|take|taking|go|going)\\b[^.?!]{0,20}\\b(?:through|via|with) the (?:regulator|ombudsman)\\b",
        "\\bi(?:'m| am|m) reporting (?:you|this|your company|your firm)\\b",
        '\\bcomplaint\\b[^.?!]{0,60}\\b(?:start|open|make|lodge|file|raise|log) one\\b',
        '\\b(?:a|new|my|the) (?:new )?complaint (?:opened|raised|logged|lodged|started|registered|recorded|made)\\b',
        "\\bcomplaint\\b[^.?!]{0,25}\\b(?:i'm|i am|im|which i am) (?:making|raising|lodging|filing|submitting)\\b",
        '\\b(?:the ico|information commissioner)\\b|\\bofcom (?:will|is going to|are going to|shall)\\b',
        '\\byour (?:compliance|customer relations|executive) (?:team|department|office)\\b',
        '\\bfinal response letter\\b',
        '\\b(?:someone|somebody) independent\\b|\\bindependent (?:review|reviewer|investigation)\\b',
        '\\bhead of (?:customer (?:experience|service|services|relations)|complaints)\\b',
      ].join('|'),
    ),
  },
  {
    // Ninth measurement: legal steps told without "sue" — "pressing charges", "the court will hear
    // about this", "court papers", "a no-win-no-fee firm", "going to represent me", "on behalf of my
    // client", "instructed our firm", "notice of a claim", "the law centre", "a harassment claim".
    topic: 'legal',
    negatable: true,
    pre: /\b(?:press|court|papers|win|represent|client|instructed|notice|correspondence|law cent|claim|expect)/,
    re: re(
      [
        '\\bpress(?:ing)? charges\\b',
        '\\b(?:the )?(?:court|courts|judge) will (?:hear|decide|see)\\b|\\bcourt papers\\b',
        '\\bno[\\s-]win[\\s-]no[\\s-]fee\\b',
        "\\b(?:going to|will|gonna|'ll|is going to) represent (?:me|us)\\b",
        '\\bon behalf of (?:my|our) client\\b|\\bmy client\\b[^.?!]{0,60}\\binstructed\\b|\\bwe (?:are|have been) instructed\\b|\\binstructed (?:our|this) firm\\b',
        '\\bnotice of (?:a |an )?claim\\b|\\bdirect (?:further|all|any) correspondence to us\\b',
        '\\b(?:appointment|advice|advised|went|going|spoke|speaking|seen|seeing) (?:at|to|with|from) (?:the |a )?law cent(?:re|er)\\b',
        '\\b(?:filing|file|filed|issuing|issue|issued|bringing|bring|preparing|prepared|drafting|drafted) (?:a |an |the |my )?(?:harassment|negligence|discrimination|fraud|damages|legal|court|county court|small) claims?\\b',
        "\\bexpect (?:their|a|our|my|his|her) (?:solicitor's |lawyer's |legal )?letter\\b",
      ].join('|'),
    ),
  },
  {
    // Ninth measurement: a death told plainly in the words the patterns above missed — "he's died",
    // "the holder has died", "the person it's for died", "after my father's passing", "she is dead",
    // "I am his executor", "we lost grandpa on Thursday", "losing my wife", "laid to rest", a
    // learner's "my husband he die in August", "stillborn".
    topic: 'bereavement',
    negatable: false,
    pre: /\b(?:died|dead|die|deceas|pass|death|funeral|executor|lost|losing|laid to rest|stillborn)/,
    re: re(
      [
        "\\b(?:he|she|they)(?:'s| has| have|'ve) (?:sadly |recently |just )?(?:died|passed(?: away| on)?)\\b(?! (?:the|a|an|my|your|this|that|it|his|her|our|their|some|any|through|by|over)\\b)",
        `\\b(?:(?:the |main |primary )?(?:account|contract|policy|bill) ?holder|holder|bill ?payer|the person|the customer|the owner|subscriber)\\b[^.?!]{0,40}?\\b(?:has |had |sadly |recently |just |suddenly )*(?:died|passed away|is dead|is deceased)\\b`,
        `\\b(?:my|our|his|her|their) (?:late |dear )?${RELATION}'s (?:death|passing|funeral)\\b|\\b(?:after|since|before|following) (?:his|her|their) (?:death|passing)\\b`,
        "\\b(?:she|he)(?:'s| is) dead\\b(?! (?:tired|beat|serious|set|sure|right|bored|slow|wrong|quiet|funny|cheap|easy|on|to|in the water))",
        "\\b(?:i(?:'m| am) |as )(?:his|her|their) executor\\b",
        `\\b(?:lost|losing) (?:my|our|her|his|their) (?:\\w+ )?${RELATION}\\b(?!'s|s\\b| (?:phone|card|keys|job|number|password|wallet|sim|details|contract|account)\\b)|\\blost (?:grandpa|grandma|gran|nan|mum|mom|dad|granddad|grandad|grandad)\\b(?!'s)`,
        '\\b(?:he|she) (?:is )?(?:die|dies|dead) (?:in|on|since|last|two|three|four|\\d)|\\b(?:is|are) now dead\\b',
        '\\blaid to rest\\b|\\bstillborn\\b',
      ].join('|'),
    ),
  },
];

/** A thing, not a person, that "died" or "passed away": "my phone passed away lol". */
export const THING_DIED =
  /\bmy (?:phone|mobile|laptop|car|battery|tv|telly|computer|pc|printer|router|modem|tablet|ipad|console|fridge|freezer|boiler|washing machine|plant|plants|goldfish|headphones|charger|sim|card)\b(?:\s+\w+){0,2}\s+(?:just\s+|has\s+|finally\s+)?(?:passed away|died|is dead)/;

/**
 * The customer's own matter: "my mother passed away and I'm cutting costs: cancel my own
 * subscription" mentions a death but is not about the deceased's account, so it is no
 * bereavement case, unless the same message also speaks of their account.
 */
export const OWN_MATTER = re(
  `(?<!\\bon |\\bby )\\bmy own\\b(?!\\s+(?:pension|income|wages?|salary|money|now)\\b)|\\bown (?:account|subscription|plan|internet|service|bill|line|contract|order|booking|reservation)\\b|\\b(?:the )?account(?:'s| is) (?:mine|in my name)\\b`,
);
export const THEIR_MATTER = re(
  `\\b(?:their|his|her)\\s+(?:account|subscription|plan|internet|service|bills?|line|contract|order|booking|reservation|estate)\\b`,
);

/**
 * A death told across an apposition: "My partner Alex, the account holder, died recently" is
 * split at its commas, so the clause with the verb has no subject. `DEATH_WITHOUT_SUBJECT` is
 * such a clause; it counts as bereavement when one of the two clauses before it names a relative
 * or the account holder (`BEREAVED_SUBJECT`), never on its own ("my phone, the old one, died").
 */
export const DEATH_WITHOUT_SUBJECT = re(
  `^(?:(?:and|who|has|have|had|just|recently|sadly|suddenly|tragically|unexpectedly)\\s+)*(?:died|${PASSED}|passed away)\\b`,
);
export const BEREAVED_SUBJECT = re(`\\b(?:${RELATION}|(?:the |main |primary )?account ?holder|(?:the )?policy ?holder)\\b`);

/** Words and phrases of frustration. Frustration never hands off alone; it is a modifier. */
export const FRUSTRATION = re(
  // Sarcasm first: "wow, so helpful", "oh great, another fee", "thanks for nothing".
  // (Read per clause: "Wow, so helpful." is two clauses, "wow" and "so helpful".)
  '(?:^(?:oh|wow) (?:great|brilliant|fantastic|wonderful|perfect|lovely|super)$|^(?:wow )?(?:so|very|really|super) helpful$|\\b(?:thanks|cheers) for nothing\\b)|' +
    "(?:\\b(?:ridiculous|absurd|useless|pathetic|unacceptable|outrageous|terrible|awful|horrible|horrendous|appalling|disgusting|disgraceful|shocking|worst|a joke|waste of (?:my )?time|fed up|sick (?:and tired )?of|tired of|frustrat\\w*|annoy\\w*|irritat\\w*|angry|furious|livid|pissed|mad at|upset|infuriat\\w*|exasperat\\w*|unbelievable|incompetent|stupid|idiotic|idiots?|dumb|clueless|hopeless|nonsense|rubbish|garbage|crap|bullshit|wtf|ffs|ugh+|argh+|come on|are you (?:even )?(?:kidding|serious|listening|reading)|what(?: is|'s) wrong with you|how many times|for the (?:second|third|fourth|fifth|last|hundredth|nth|\\d+(?:st|nd|rd|th)) time|(?:i've|i have|i) (?:already |just )?(?:told|said|explained|asked|given) (?:you|this|that|it)|again and again|over and over|still (?:not|no|nothing|hasn't|haven't|isn't|doesn't|waiting|broken|wrong)|not listening|oh my god|omg|for (?:god|fuck|heaven|pete)'?s sake|shambles|beyond a joke|broken record|stop changing the subject|do you (?:even )?understand (?:english|me|what)|did you (?:even )?(?:miss|read) (?:the|what|my)|going (?:round )?in circles|round in circles|not helping|no help|doesn't help|zero help|never again|getting nowhere|fuming|grr+|jeez|dammit|damn it|dodging|(?:i )?can(?:'t|not) believe|(?:this|it) is so (?:difficult|hard)|why is (?:this|it) so (?:difficult|hard)|i'?m so done|(?:asked|told you|said it|explained) (?:three|four|five|several|multiple|many|\\d+) times|(?:three|four|five|several|\\d+) times now)\\b|^seriously\\b|\\bseriously\\s*[?!]|[!?]{3,}|!{2,})",
);
const FRUSTRATION_PUNCTUATION = /^(?:[!?]{3,}|!{2,})$/;

/** Whether a frustration hit is punctuation only ("!!!"), which no negation can take back. */
export const isPunctuationOnly = (hit: string): boolean => FRUSTRATION_PUNCTUATION.test(hit);

/**
 * Shouting: at least two all-capital words making up most of the words. Order ids ("W123")
 * and short acronyms in an ordinary sentence do not count.
 */
export function isShouting(original: string): boolean {
  const tokens = original.match(/[A-Za-z]{2,}/g) ?? [];
  const caps = tokens.filter((t) => t === t.toUpperCase());
  return caps.length >= 2 && caps.length / tokens.length >= 0.6;
}

/** Capitals that name a thing rather than raise the voice: SIM, PUK, IBAN, ESIM… */
const ACRONYMS = new Set(
  'SIMS IBAN IMEI IMSI ESIM WIFI ADSL VDSL FTTP FTTC VOIP PAYG ISBN HMRC STAC SWIFT BACS CHAPS NATO ASAP EMEA APAC'.split(' '),
);
/** Short words that, in capitals, raise the voice: "I DID", "it IS", "MY contract", "NOT on". */
const RAISED_SHORT = new Set(
  "DID DO DOES HAVE HAS HAD IS AM ARE WAS WERE NOT NO NEVER STILL AGAIN WHY WHERE WHEN WHAT HOW WHO MY ME YOU YOUR ANY ALL EVERY NOW DON'T DIDN'T CAN'T WON'T ISN'T DOESN'T WASN'T HAVEN'T HASN'T NONE STOP".split(
    ' ',
  ),
);
/**
 * A word raised in a message otherwise in lower case ("I DID top up", "WHERE is it?", "the
 * phone IS unlocked"), or words spelt out one at a time ("where. is. my. router."): a voice
 * raised at someone, not a name, a code or an acronym (SIM, PUK, LS6 2QT, INV-55102, WELCOME10).
 * Quoted words are someone else's.
 */
export const isEmphatic = memoByText(isEmphaticAfresh);
function isEmphaticAfresh(original: string): boolean {
  // Most messages have neither two capitals in a row nor a full stop inside: nothing to read.
  if (!/[A-Z]{2}|\.\s/.test(original)) return false;
  const own = original.replace(/"[^"]*"|“[^”]*”/g, ' ');
  const words = own.split(/\s+/).map((w) => w.replace(/^[^A-Za-z0-9']+|[^A-Za-z0-9']+$/g, ''));
  const lower = words.filter((w) => /[a-z]/.test(w)).length;
  // One raised word is often stress for clarity ("is MY phone unlocked?"); two raise the voice.
  const raised = words.filter(
    (w) => /^[A-Z][A-Z']*[A-Z]$/.test(w) && (RAISED_SHORT.has(w) || (w.replace(/'/g, '').length >= 4 && !ACRONYMS.has(w))),
  );
  if (raised.length >= 2 && lower >= 2) return true;
  return own.split(/[.]\s+|[.]$/).filter((part) => /^\s*[A-Za-z']+\s*$/.test(part)).length >= 3;
}

/** A failed tool call whose output says the tool cannot be used at all (not a passing error). */
export const TOOL_UNAVAILABLE =
  /\b(?:disabled|not supported|unsupported|not available|unavailable|not enabled|not implemented|not permitted|not allowed|no such (?:tool|function|operation)|unknown (?:tool|function|operation)|tool not found|turned off|switched off|deactivated|out of scope|not authori[sz]ed to)\b/;
/** Words that make an "unavailable" output a transient failure: it may work on the next try. */
export const TRANSIENT =
  /\b(?:temporar\w*|try again|retry|retrying|later|timeout|timed out|time out|rate[\s-]?limit\w*|50[234]|overloaded|busy|service unavailable|maintenance|database|connection|network|upstream|gateway|server|econn\w+|tls|handshake|dns|socket|unreachable|down)\b/;

/** Clauses that ask the agent to do something: checked against the capabilities. */
export const REQUEST_FRAME =
  /\b(?:i\s+(?:really\s+)?(?:want|need|would like|wanna|wish|have to|must)|i'd (?:like|love)|i'm (?:trying|looking|hoping|wanting) to|i am (?:trying|looking|hoping) to|(?:can|could|would|will) you|(?:can|could|may) i|help me|how (?:do|can|could) i|is it possible to|please|let me|where (?:can|do) i)\b/;
/** Clauses that report a problem, which is a request in all but form. */
export const PROBLEM_FRAME =
  /\b(?:not working|doesn't work|does not work|isn't working|won't (?:work|load|open|start|connect)|stopped working|broken|is down|(?:can't|cannot|can not) (?:log|sign|access|get|connect|find|open|use))\b/;

/** Words that carry no intent of their own: function words, politeness, frustration, fillers. */
export const STOPWORDS = new Set(
  (
    'a an the and or but if then so of to in on at by for with from about into over after before up down out off again still just ' +
    "really very too also already yet now please pls plz thanks thank thx you your yours u me my mine i i'm i've i'd i'll we us our " +
    "it it's its this that these those there here what which who whom whose when where why how is are was were be been being am " +
    'do does did done doing have has had having can could would will shall should may might must not no yes yeah ok okay sure ' +
    "don't doesn't didn't won't can't cannot isn't aren't wasn't haven't hasn't hi hello hey dear sir madam some any all " +
    'want wanna need like would get got give make let know tell say said ask asked help fix sort check look see go try wait ' +
    'thing things stuff something anything everything nothing one ones lot bit way time times today day again same other another ' +
    'ridiculous useless unacceptable terrible awful seriously frustrated frustrating annoying angry joke come honestly literally ' +
    'understand explain answer repeat clarify confirm continue hurry quickly asap soon possible able issue problem question ' +
    'order account wrong january february march april may june july august september october november december ' +
    'monday tuesday wednesday thursday friday saturday sunday tomorrow yesterday tonight morning afternoon evening week month year ' +
    // Hedges and assent ("I think so, yes. Please go ahead, sorry"): a confirmation restates no request.
    'think guess suppose believe sorry apologies apologise apologize excuse mean meant saying reading right proceed ahead fine ' +
    'alright great good um umm uh hmm well maybe perhaps probably exactly called'
  ).split(/\s+/),
);
// "order", "account" and "wrong" are stop words for matching capabilities (nearly every request
// names them) but they do tell restatements apart, so the intent key keeps them.
const INTENT_KEEP = new Set(['order', 'account', 'wrong']);

/** Whether a word carries intent for telling restatements apart. */
export const isIntentWord = (w: string): boolean =>
  INTENT_KEEP.has(w) || (!STOPWORDS.has(w) && !/^\d+$/.test(w) && (w.length >= 3 || /\d/.test(w)));
/** Whether a word says what is asked for, for matching against capabilities: ids and numbers do not. */
export const isRequestWord = (w: string): boolean => !STOPWORDS.has(w) && w.length >= 3 && !/\d/.test(w);

/** A crude stem, enough to make "refunds", "refunded" and "refunding" one word. */
export function stem(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const out = stemAfresh(word);
  if (stems.size >= 20_000) stems.clear();
  stems.set(word, out);
  return out;
}

const stems = new Map<string, string>();

function stemAfresh(word: string): string {
  let w = word.replace(/'s$/, '');
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ed', 'es', 's', 'ly']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) {
      w = w.slice(0, -suffix.length) + (suffix === 'ies' ? 'y' : '');
      break;
    }
  }
  return w.replace(/(.)\1$/, '$1').replace(/e$/, '');
}

/** A message that only thanks or closes, which restates nothing even if it names the topic. */
export const GRATITUDE =
  /\b(?:thanks?|thank you|thx|ty|cheers|perfect|great|awesome|appreciate\w*|bye|goodbye|that's all|all good|sorted|resolved|works now|it worked)\b/;
/** A reply that takes the agent's answer and asks nothing more: "ok monthly is fine then", "fair enough, I'll try it". */
export const ACCEPTS =
  /\b(?:(?:is|that's|thats|that is) fine(?: then)?|fine then|fair enough|just curious|no worries|makes sense|good to know|that works|it works|that worked|that's useful|that's helpful)\b(?=\s*(?:$|[,.;!:)]|thanks|thank you|cheers|lol|i'll|i will))|^(?:(?:ok|okay|oh|ah|right|fine|great|cool)[,.!]*\s+)+i'll (?:just )?(?:try|wait|tell|check|look|find|do|leave|see)\b/;
/** Whether a message only takes the agent's answer: short, asking nothing, in the words of {@link ACCEPTS}. */
export function isAcceptance(norm: string): boolean {
  return !norm.includes('?') && norm.split(/\s+/).length <= 10 && ACCEPTS.test(norm);
}
/** Words that keep a thankful message a complaint: "thanks, but it's still wrong". */
export const STILL_A_PROBLEM = /\b(?:still|not|n't|never|again|wrong|where|why|but)\b|n't\b/;
