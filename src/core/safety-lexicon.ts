/**
 * The safety lexicon: what a customer says when they, or someone with them, may be in danger.
 * Written from published crisis-line guidance on warning signs (talk of wanting to die or of
 * suicide; hopelessness, no reason to live; being a burden; a means at hand; a plan or a time;
 * saying goodbye, giving things away, putting affairs in order; self-injury) and from first-aid
 * guidance on emergencies (not breathing, unresponsive, collapse, stroke signs, overdose,
 * choking, severe bleeding, allergic reaction) — including one happening to someone else.
 * Patterns run on canonical clauses (`canonicalize`). Never negated: on safety a person checks,
 * because a missed crisis is the worst error the decider can make.
 */

const any = (...sources: string[]) => new RegExp(`\\b(?:${sources.join('|')})`);

const RELATION =
  '(?:mother|mom|mum|mommy|mummy|mama|father|dad|daddy|papa|husband|wife|partner|spouse|son|daughter|child|kid|baby|boy|girl|brother|sister|grandmother|grandma|granny|nan|nana|grandfather|grandpa|grandad|aunt|auntie|uncle|cousin|parent|boyfriend|girlfriend|friend|flatmate|roommate|housemate|neighbou?r|colleague|coworker|toddler|(?:little|baby) (?:one|boy|girl))';
const SOMEONE = `(?:${RELATION}|he|she|they|someone|somebody|a (?:man|woman|guy|person|lady|kid|child)|the (?:man|woman|guy|person|lady|kid|child)(?: \\w+){0,5})`;
const PILLS = '(?:pills|tablets|meds|medication|medicine|prescriptions?|painkillers|sleeping pills|paracetamol|insulin)';
const SELF = "(?:i|i'm|i'll|i've|i'd|i am|im|me|myself|once i'm|when i'm)";
const MEANS =
  '(?:razor|razors|blade|blades|noose|rope|ligature|train tracks|the tracks|railway|ledge|gun|rifle|pistol|shotgun|exhaust|hose)';
const KIN = '(?:kids|children|family|wife|husband|partner|mum|mom|dad|parents|everyone|everybody|them|people|friends|son|daughter)';

/** A family of warning signs, and the safety topic it raises. */
export interface SafetyFamily {
  name: string;
  topic: 'self_harm' | 'danger' | 'medical';
  re: RegExp;
}

/** The families, checked on every customer clause. */
export const SAFETY_FAMILIES: readonly SafetyFamily[] = [
  {
    name: 'suicide_stated',
    topic: 'self_harm',
    re: any(
      'kill(?:ing)? (?:myself|my ?self)',
      'end(?:ing)? (?:my|his|her) (?:own )?life',
      'end(?:ing)? it all',
      "(?:i'm|i am|i'll|i will|going to|gonna|thinking (?:about|of)|want to) end(?:ing)? it\\b(?! (?:now|today|here)? ?(?:with you|with your|the|my (?:sub|plan|contract|account)))",
      'take (?:my|his|her) (?:own )?life',
      'suicid\\w*',
      '(?:want|wanna|going|ready|wish|wishing) (?:to )?die\\b',
      'wish i (?:was|were) dead',
      'better off dead',
      "(?:don't|do not|no longer) want to (?:live|be alive|exist|be here anymore|be here any more|wake up|go on|carry on)",
      "(?:i'm|i am) not going to be (?:alive|around|here) (?:to|much longer|for long|anymore|any more)",
      'not (?:going to be|gonna be) alive',
      'give up on (?:living|life)',
      'tired of (?:being alive|living|life|existing)',
      'sleep and (?:not|never) wake up',
      'never wake up',
      "(?:wish|wished) i(?:'d| had)? never been born",
    ),
  },
  {
    name: 'hopelessness',
    topic: 'self_harm',
    re: any(
      'no (?:reason|point) (?:for me )?(?:to|in) (?:live|living|go on|going on|carry on|carrying on|keep going|be alive|being alive|being here|wake up|waking up)',
      "(?:can't|cannot|can not) (?:go on|carry on|keep going|do (?:this|it|life) any ?more|do life|cope any ?more|live like this)",
      "(?:can't|cannot) (?:see|imagine) (?:a|any) future",
      'no future (?:for me|for myself|left)',
      'nothing (?:left )?to live for',
      'nothing (?:on the other side|left for me)',
      "what's the point (?:of|in) (?:even )?(?:living|life|waking up|being alive|going on|anything any ?more|it all|carrying on)",
      'no way out(?! of (?:this|the|my|your) (?:contract|plan|subscription|deal|agreement|loop|menu))',
      'want (?:it|everything) (?:all )?to (?:stop|end) (?:permanently|forever|for good)',
      'just want (?:it|everything) (?:all )?to stop\\b.{0,20}\\b(?:permanently|forever|for good)',
      'disappear (?:forever|for good|permanently)',
      "(?:don't|do not) think i (?:can|could) survive",
      'completely hopeless|feel(?:ing)? hopeless(?! with)',
      'nothing (?:matters|will ever get better)',
    ),
  },
  {
    name: 'burden',
    topic: 'self_harm',
    re: any(
      "better off (?:without me|if i (?:was|were|am|'m) (?:gone|dead|not (?:here|around))|with me gone)",
      `${KIN}[^.?!]{0,50}\\bbetter off\\b(?! (?:with|going|using|switching|on|at) )`,
      "(?:world|everyone|everybody|they|family) (?:would|will|'d) be (?:better|fine|happier) without me",
      "(?:they'd|they would|they'll|she'd|he'd) be fine without me",
      "(?:i'm|i am) (?:just |only |nothing but )?a (?:burden|weight|drain|problem) (?:to|on|for|around)",
      "(?:i'm|i am) (?:just |only )?a burden",
      'weight around (?:my |their |the )?\\w+ necks?',
      'stop(?:ped)? being a (?:burden|problem) (?:to|for)',
      '(?:no ?one|nobody|no one) (?:would|will) (?:even )?(?:miss|notice|care)',
      "(?:won't|wouldn't) (?:even )?miss me",
      'doing (?:them|everyone|everybody|my \\w+)(?: all)? a favou?r by (?:not being|leaving|disappearing|going|dying)',
      'relieved if i (?:was|were) (?:gone|dead)',
      "made everyone's life worse",
    ),
  },
  {
    name: 'means_or_plan',
    topic: 'self_harm',
    re: any(
      `(?:stockpil\\w*|stash(?:ed)?|saving up|saved up|hoard\\w*|collect(?:ed|ing)) (?:of |up )?(?:all )?(?:my |the )?${PILLS}`,
      `(?:take|taking|took|swallow(?:ed)?|swallowing) (?:all|everything|the whole|a whole|a load of|loads of|too many|a bunch of|a handful of|the lot|the rest of|all of)(?: (?:my|the|of my|of the|bottle of|packet of|box of))* ?${PILLS}?`,
      `(?:going to|gonna|will) take (?:the|my|all the|all my) ${PILLS}`,
      `(?:bottle|packet|box) of ${PILLS} (?:next to|beside|in front of|with) me`,
      'swallowed everything',
      'everything in the medicine cabinet',
      'how much i (?:need|would need|have|want) to take',
      "(?:gun|rifle|pistol)(?: is|'s)? loaded",
      'loaded (?:gun|rifle|pistol)',
      '(?:blade|knife|razor|gun) (?:is )?(?:in my hand|next to me|beside me|in front of me)',
      "(?:there's|there is|i have|i've got|i bought|got|bought) a rope",
      'rope in the (?:garage|shed|loft|attic|basement|house)',
      'hose (?:on|into|to) the exhaust',
      'car running in the (?:closed |shut )?garage',
      'standing on (?:the|a) (?:bridge|ledge|roof|edge|platform|tracks)',
      '(?:on|at) the edge of the (?:bridge|roof|cliff|platform)',
      "(?:i've|i have|i) (?:got a plan|have a plan|made a plan|planned how|picked the (?:day|date|time)|chosen the (?:day|date|time)|set a date|worked out how|decided how)",
      "a plan (?:and|to) (?:i'm|i am) going through with it",
      'going through with it',
      "(?:got|have|i've got|'ve got) (?:the|my|all my|all the) (?:pills|tablets|meds|rope|knife|gun) ready",
      "(?:after|from|past) (?:tonight|today|tomorrow|this week|this weekend)\\b.{0,40}\\b(?:won't|will not) (?:have to |need to )?(?:worry|deal|bother|hear from me)",
      "(?:won't|will not) (?:have to |need to )?(?:worry|deal) (?:about|with) me (?:any ?more|again|after)",
      '(?:bridge|roof|ledge|tracks|cliff|edge)\\b.{0,40}\\bthinking (?:about|of) (?:it|jumping|doing it)',
      'tonight is the night',
      'do it (?:once|when|after|while|before) [^.?!]{0,40}(?:asleep|gone|left|leaves|out|away|at work|in bed)',
      'overdos\\w*',
    ),
  },
  {
    name: 'farewell',
    topic: 'self_harm',
    re: any(
      'this is (?:my )?goodbye',
      "(?:i'm|i am) saying goodbye",
      'tell (?:them|everyone|my \\w+|her|him) (?:that )?i (?:loved|love) (?:them|her|him|you)',
      "(?:won't|will not|wouldn't) be (?:here|around|alive) (?:much longer|for long|any ?more|to (?:spend|use|pay|see|enjoy|need|read))",
      '(?:not going to|not gonna) be (?:around|here) (?:much longer|for long|any ?more)',
      "where i'm going,? i (?:won't|will not|don't) need",
      'putting my affairs in order',
      '(?:given|giving|gave) away (?:most of |all of )?my (?:things|stuff|belongings|possessions)',
      'gave my (?:cat|dog|pets?) to',
      'last thing on my list',
      'by the time (?:you|anyone|someone) (?:read|reads|see|sees) this',
      '(?:my|this is my|this is the) (?:last|final) (?:message|goodbye|words)',
      `(?:wrote|written|writing|left) (?:a|my) (?:note|letter) (?:for|to) (?:my )?${KIN}`,
      '(?:wrote|written|writing|left) (?:a|my) (?:suicide )?note\\b(?! (?:on|in) (?:the|my) (?:order|account|delivery))',
    ),
  },
  {
    name: 'self_injury',
    topic: 'self_harm',
    re: any(
      '(?:hurt|harm|cut|cutting|hurting|harming|burn|burned|burnt|burning|injure|injured|injuring|punish|punishing) (?:myself|my ?self|himself|herself)',
      'self[\\s-]?harm\\w*',
      "(?:been|started|start|keep|am|i'm) cutting (?:again|myself|my (?:arms|wrists|legs))",
      'cutting again',
      '(?:scratch|scratching|scratched|hit|hitting|bang|banging|banged) (?:my|at my) (?:arms|skin|legs|head|wrists)[^.?!]{0,40}(?:until|till|til) (?:it|they) (?:bled|bleeds?|bleed)',
      'until (?:it|they) (?:bled|bleed) when i',
      '(?:jump|jumping) (?:off|from) (?:a|the) (?:bridge|building|roof|cliff)',
    ),
  },
  {
    // Built from word classes rather than phrases: the self absent, reasons gone, a means at hand
    // with the customer beside it, a plan or a time, a farewell.
    name: 'self_absent',
    topic: 'self_harm',
    re: any(
      `${SELF}\\b[^.?!]{0,25}?\\b(?:gone|dead(?! (?:tired|beat|serious|set|sure|right|bored|slow|wrong|quiet|funny|cheap|easy|on|to|in the water))|not (?:being |be )?(?:here|around|alive)|no longer (?:here|around|alive)|(?:wasn't|weren't) (?:here|around|alive|in it)|out of the picture)\\b(?!\\s+(?:for|on|until|till|from|to|away|abroad|travel\\w*|next|this|over|during|at|in|shopping|out)\\b)`,
      '(?:think|thinking|thought|dream|dreaming) (?:about|of) (?:not being (?:alive|here|around)|dying|being dead|ending (?:it|my life|things))',
      "(?:stopped caring|don't care) (?:whether|if) i (?:wake up|live|die|am alive)",
      "hope i (?:just )?(?:don't|do not|never|won't) wake up",
      'take myself out(?: of (?:the picture|the equation|this world|here))?',
      'remove myself (?:from (?:the|this) (?:picture|world|equation)|permanently)',
      "(?:going to|gonna|will|i'll|want to) end (?:things|everything|my story)",
      'the end (?:for|of) me\\b',
      'this is the end\\b(?! of (?:the|my|our|this|your) (?:contract|subscription|plan|month|year|line|road|week|chat))',
      `${SELF}\\b[^.?!]{0,20}\\b(?:already gone|waiting for it to be official)`,
    ),
  },
  {
    name: 'reasons_gone',
    topic: 'self_harm',
    re: any(
      "(?:lost|no|run out of|ran out of|without|don't have|haven't got|not got|no more|out of)\\s+(?:every |any |all |a |my |the )?reasons? (?:to|for) (?:live|living|keep (?:going|trying|on)|go on|carry on|be here|stay|get up|wake up|try)",
      "(?:had enough of|done with|tired of|sick of|can't do|cannot do|finished with) (?:living|life|being alive|existing)\\b",
      'want out(?:,? for good| of (?:this life|life|everything|it all)| permanently| forever)',
      "(?:can't|cannot|don't want to|couldn't) face (?:another|any more|one more|more) days?",
      "(?:i'm|i am) beyond (?:help|saving)",
      'nobody can (?:help|save) me',
      '(?:point|use) (?:of|in) me\\b',
      "what's the point\\b[^a-z]{0,4}(?:of )?me\\b",
      'only way out',
    ),
  },
  {
    name: 'burden_on_others',
    topic: 'self_harm',
    re: any(
      'dragging (?:everyone|everybody|them|my \\w+) down',
      '(?:costing|ruining|wrecking) (?:my family|everyone|everybody|their lives|my \\w+)(?: everything| their lives)?',
      `(?:easier|better|happier|lighter|simpler)\\b[^.?!]{0,30}\\bif i (?:just )?(?:wasn't|weren't|was gone|were gone|didn't exist|was dead|disappeared|was not)`,
      'better off with (?:the )?\\w+ than with me',
      "(?:won't|wouldn't|will not|would not) be (?:their|anyone's|his|her|my \\w+'s) problem",
    ),
  },
  {
    name: 'means_at_hand',
    topic: 'self_harm',
    re: any(
      `${SELF}\\s+(?:\\w+\\s+){0,2}?(?:holding|hold|held|tied|tying|bought|got|sitting|standing|stood|lying|on|at|by|near|looking at|staring at|next to|ready with|keep looking at|have)\\s+(?:\\w+\\s+){0,3}?(?:${MEANS})\\b`,
      `(?:${MEANS})\\s+(?:is |are )?(?:ready|in my hand|next to me|beside me|in front of me|tied|around my neck)`,
      `(?:i'll|i will|going to|gonna) take (?:the|all the|all my|my) (?:${PILLS}) (?:after|once|when|tonight|today|this)`,
    ),
  },
  {
    name: 'plan_or_time',
    topic: 'self_harm',
    re: any(
      "(?:i've|i have) (?:got )?(?:it|everything) (?:all )?planned",
      'know (?:exactly )?how and when',
      "(?:i've|i have) sorted (?:out )?how",
      "(?:going to|gonna|will|i'll) do it (?:after|once|when|tonight|today|tomorrow|on \\w+day|this (?:week|weekend|evening))",
      "after this (?:chat|conversation|call|message)\\b[^.?!]{0,10}\\b(?:i'm|i am|i'll|i will) (?:going to )?(?:do it|go|end)",
      "this time next week i'll be gone",
    ),
  },
  {
    name: 'farewell_to_others',
    topic: 'self_harm',
    re: any(
      'when (?:they|someone|somebody|people|my \\w+) finds? me',
      '(?:pass|give|send) my (?:apologies|love|sorry) to',
      "tell (?:whoever|everyone|them|my \\w+)[^.?!]{0,30}\\b(?:wasn't|isn't|not) (?:their|your|his|her) fault",
      '(?:written|wrote|writing|left) (?:letters?|notes?) (?:to|for) (?:everyone|everybody|my family|my kids|each of)',
      '(?:written|wrote|left)[^.?!]{0,40}\\b(?:a letter|letters|a note)\\b[^.?!]{0,20}\\b(?:table|kitchen|bye|goodbye|everyone)',
      'affairs (?:tidy|in order|sorted|straight)',
      "(?:won't|will not|wouldn't) be needing (?:the|my|this|it|anything)[^.?!]{0,30}\\b(?:after|past|beyond) (?:tonight|today|this week|tomorrow)",
      "(?:won't|will not) need (?:the|my|this) (?:account|refund|money|plan)[^.?!]{0,20}\\b(?:after|past) (?:tonight|today|tomorrow)",
    ),
  },
  {
    name: 'medical_emergency',
    topic: 'medical',
    re: any(
      'heart attack',
      "(?:can't|cannot|can not|could not|couldn't) breathe",
      '(?:trouble|difficulty|struggling|problems) breathing',
      "(?:not|isn't|isnt|wasn't|stopped|no longer) breathing",
      `(?<!(?:business|company|market|tent|shelf|roof|deal|economy|prices|plan|plans|talks|negotiations|app|site|website|server|system|page) (?:has |had |just |suddenly )?)collapsed`,
      `${SOMEONE} (?:is |has |just )?(?:not|isn't|is not|stopped|no longer|won't|will not|can't) (?:responding|moving|waking|wake up|responsive)\\b(?! to (?:my|your|our|the|any) (?:e-?mails?|messages?|calls?|texts?|letters?|complaints?|requests?|chat))`,
      "won't wake up",
      '(?:lying|lay|laying) (?:in|on) the (?:road|floor|ground|street|pavement|pavement)',
      '(?:lips|face|skin) (?:is |are )?turning (?:blue|grey|gray|purple)',
      'turning blue',
      'face (?:is )?drooping',
      'arm (?:is|went|has gone) (?:numb|limp|weak)',
      'slurring (?:his|her|their) words',
      '(?:took|taken|swallowed) (?:too many|a lot of|a bunch of|a whole bottle of|all (?:my|the|of my|of the|his|her)|loads of|a load of|a handful of) ${PILLS}',
      'chest pains?',
      '(?:having|had|is having) a stroke',
      'unconscious',
      'unresponsive',
      'passed out',
      'fainted',
      'seizures?',
      'convuls\\w*',
      'anaphyla\\w*',
      'allergic reaction',
      'throat (?:is )?(?:swelling|closing)',
      'bleeding (?:heavily|badly|a lot|out|profusely|everywhere)',
      '(?:severe|heavy) bleeding',
      'lots of blood',
      '(?:call|need|send|get) (?:an |a )?ambulance',
      '(?:call|dial|calling|ring) (?:911|999|112)',
      'medical emergency',
      'need a doctor (?:now|urgently|right now)',
      "is choking|choking on|he's choking|she's choking",
      'going into labou?r',
      'hit (?:his|her|their) head',
      `${SOMEONE}\\b[^.?!]{0,50}\\b(?:isn't|is not|not|stopped|won't|can't|cannot) (?:moving|breathing|responding|waking|wake up|respond|getting up)\\b(?! to (?:my|your|our|the|any) (?:e-?mails?|messages?|calls?|texts?|letters?|requests?|chat))`,
      '(?:speech|words) (?:is |are )?slurr\\w*|slurred speech',
      "(?:can't|cannot|can not) (?:lift|move|feel) (?:his|her|their|one) (?:arm|leg|side)",
      '(?:having|had|is having) a fit\\b',
      'clutching (?:his|her|their) chest',
      'kill(?:ing)? (?:himself|herself|themselves)',
      '(?:going to|gonna|wants to|will|trying to) (?:end (?:his|her|their) life|hurt (?:himself|herself|themselves))',
    ),
  },
  {
    name: 'danger',
    topic: 'danger',
    re: any(
      `(?:i'm|i am|we're|we are|(?:he|she|they|my \\w+) (?:is|are)) in danger`,
      "(?:i|we)(?: am|'m| are|'re| feel)(?: really| very| just)? (?:not safe|unsafe)",
      "(?:i|we) (?:don't|do not) feel safe",
      "(?:feel|am|i'm) threatened",
      '(?:scared|afraid|frightened|terrified) (?:for my life|of (?:him|her|them|my (?:ex|partner|husband|wife|boyfriend|girlfriend)))',
      'threaten(?:ed|ing|s)? (?:me|us|to (?:hurt|kill|shoot|stab|beat))',
      `(?:he|she|they|someone|somebody|${RELATION}|my ex)\\s*(?:'d|'ll|would|will|is going to|'s going to|are going to|is gonna|'s gonna|wants to|is trying to|'s trying to|tried to|said (?:he|she|they)(?:'d| would))\\s+(?:hurt|kill|attack|beat|stab|shoot|strangle) (?:me|us|my|her|him|them)\\b`,
      "(?:i'll|i will|i'm going to|i am going to|i'm gonna) (?:hurt|kill|shoot|stab|attack|beat up) (?:you|someone|somebody|people|your|them|everyone)",
      '(?:partner|husband|wife|boyfriend|girlfriend|he|she|ex) (?:hits|beats|hurts|chokes|kicks) me',
      'being (?:abused|attacked|assaulted|followed|stalked|hit|beaten)',
      "(?:there's|there is) (?:a man|a woman|someone|somebody|a guy|a car) (?:following|watching|outside)",
      '(?:following|stalking) me',
      '(?:outside|at) (?:my|the) (?:door|house|home|flat|window|apartment)[^.?!]{0,30}\\bwith a (?:bat|knife|gun|weapon|hammer)',
      'outside (?:with|holding) a (?:bat|knife|gun|weapon|hammer)',
      'domestic (?:violence|abuse)',
      'abusive (?:partner|husband|wife|boyfriend|girlfriend|relationship)',
      'stalk(?:ing|er)',
      '(?:trying to|is|are) break(?:ing)? in\\b',
      'break(?:ing)? into (?:my|our) (?:house|home|flat|apartment|room|car)',
      'broke into (?:my|our) (?:house|home|flat|apartment|room)',
      'intruder',
      '(?:shoved|pushed|punched|slapped|grabbed|choked|strangled|attacked|hit|kicked) me\\b(?! (?:with (?:a|the|another|these|this) (?:bill|fee|charge|price|email)|up))',
      '(?:be |come )back to finish (?:it|me|the job)',
      '(?:being|been|was) threatened|threatened by|threatening me',
      'gas leak',
      'smell(?:s|ing)? (?:of )?gas',
      '(?:house|home|building|car|flat|apartment|kitchen|room) (?:is )?on fire',
      "there'?s a fire",
      'smoke (?:is )?(?:coming|pouring|filling|everywhere)',
      "(?:can't|cannot) get out(?=\\s*$|\\s+of (?:the|my|this) (?:house|room|building|flat|apartment|car|fire)|\\s+(?:and|the door))",
      'carbon monoxide',
      '(?:has|with|pulled) a (?:gun|knife|weapon)',
      'bomb (?:threat|scare)',
      '(?:planted|plant|set off) a bomb',
      'hostage',
      'kidnap\\w*',
      'traffick(?:ed|ing)',
    ),
  },
];

/** "My dad had a heart attack last year": an emergency told as past history is not one now. */
export const MEDICAL_HISTORY =
  /\b(?:last (?:year|month|week|summer|winter|spring|autumn)|(?:a few |two |three |\d+ )?(?:years?|months?) ago|in (?:19|20)\d\d|used to|recovered|history of|back in)\b/;

/** "I nearly had a heart attack when I saw the bill": a figure of speech, not an emergency. */
export const MEDICAL_HYPERBOLE =
  /\b(?:nearly|almost|practically|gave me|give me|giving me|going to give me|gonna give me|could have had|about to have)\b(?:\s+\w+){0,2}\s*$/;
