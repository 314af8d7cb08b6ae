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
const PILLS =
  '(?:pills|tablets|meds|medication|medicine|prescriptions?|painkillers|sleeping pills|paracetamol|insulin|methadone|heart medication|antidepressants)';
const SELF = "(?:i|i'm|i'll|i've|i'd|i am|im|me|myself|once i'm|when i'm)";
const MEANS =
  '(?:razor|razors|blade|blades|knife|knives|noose|rope|ligature|train tracks|the tracks|railway|ledge|gun|rifle|pistol|shotgun|exhaust|hose)';
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
      // A learner's "I want to kill me".
      "\\bi (?:want|wanna|am going|'m going|will|wish) (?:to )?kill me\\b",
      'end(?:ing)? (?:my|his|her) (?:own )?life',
      'end(?:ing)? it all',
      "(?:i'm|i am|i'll|i will|i'd|i would|going to|gonna|thinking (?:about|of)|want to) end(?:ing)? it\\b(?! (?:now|today|here)? ?(?:with you|with your|the|my (?:sub|plan|contract|account)))",
      'take (?:my|his|her) (?:own )?life',
      'suicid\\w*',
      '(?:want|wanna|going|ready|wish|wishing) (?:to )?die\\b',
      'wish i (?:was|were) dead',
      'better off dead',
      'wants? (?:to )?die\\b',
      'want (?:it|everything|it all) (?:all )?to be over\\b',
      "(?:can't|cannot) (?:keep|go on|carry on) living",
      "life (?:is not|isn't|is no longer|ain't) worth (?:it|living)",
      '(?:ready|about|decided) to end (?:it|it all|my life|things)\\b',
      'never (?:hear from|see) me again\\b[^.?!]{0,20}\\b(?:after|tonight|today|goodbye|bye)',
      "(?:don't|do not|no longer) want to (?:live|be alive|exist|be here anymore|be here any more|wake up|go on|carry on)",
      "(?:i'm|i am) not going to be (?:alive|around|here) (?:to|much longer|for long|anymore|any more)",
      'not (?:going to be|gonna be) alive',
      'give up on (?:living|life)',
      'tired of (?:being alive|living|life|existing)',
      'sleep and (?:not|never) wake up',
      'never wake up',
      "(?:wish|wished) i(?:'d| had)? never been born",
      // "planning to off myself", "off yourself on sunday": slang for suicide.
      '(?:to|gonna|going to|planning to|wanna|want to) off (?:myself|my ?self|meself|yourself)\\b',
      "life(?:'s|s| is)? (?:just )?not worth (?:it|living)\\b",
      // "I want everything to end on the same day, the account and me".
      '\\b(?:end|ends|ended|over|finish(?:ed)?)\\b[^.?!]{0,50}\\b(?:and me|me too|me as well|me included|including me)\\b',
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
      "(?:nothing|things|life)(?:'s| is)? (?:ever )?(?:going to|gonna|ever going to) (?:ever )?get better\\b(?! (?:until|unless|if|till|when|once|with))",
      "(?:couldn't|could not) (?:keep going|go on|carry on|do it any ?more)\\b",
      '(?:done|finished) with (?:everything|it all|life)\\b[^.?!]{0,40}\\bnot just (?:you|this|the)\\b',
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
      'standing on (?:the|a) (?:bridge|ledge|roof|edge|tracks)',
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
      '\\b(?:take|taking|took) an od\\b|\\bod on\\b',
      '(?:researched|research|looked up|looking up|searching|googled|googling) (?:how|ways) to (?:die|kill|end|do it)',
      '(?:how many|enough) (?:${PILLS}) (?:to|would) (?:die|kill|end|do it)',
      '(?:enough|all the) (?:${PILLS}) to (?:end|do) it',
      '(?:jump|step|throw myself|walk) (?:in front of|under|off|into) (?:a |the )?(?:train|bus|lorry|truck|traffic|bridge|building|roof|sea|river)',
      '(?:crash|drive|driving) my car (?:into|off|on purpose)',
      '(?:hang|hanging|drown|drowning|shoot|shooting|poison|poisoning|suffocate|starve) myself',
      '(?:slit|slash|cut|cutting) (?:my )?wrists',
    ),
  },
  {
    name: 'farewell',
    topic: 'self_harm',
    re: any(
      'this is (?:my )?goodbye',
      "(?:i'm|i am) saying goodbye\\b(?! to (?:your|this|the|you guys|you lot) (?:service|company|plan|subscription|brand|bank|network|provider))",
      'tell (?:them|everyone|my \\w+|her|him) (?:that )?i (?:loved|love) (?:them|her|him|you)',
      "(?:won't|will not|wouldn't) be (?:here|around|alive) (?:much longer|for long|any ?more|to (?:spend|use|pay|see|enjoy|need|read))",
      '(?:not going to|not gonna) be (?:around|here) (?:much longer|for long|any ?more)',
      "where i'm going,? i (?:won't|will not|don't) need",
      'putting my affairs in order',
      '(?:given|giving|gave) away (?:most of |all of )?my (?:things|stuff|belongings|possessions)',
      'gave my (?:cat|dog|pets?) to',
      'last thing on my list',
      'by the time (?:you|anyone|someone) (?:read|reads|see|sees) this',
      '(?:my|this is my|this is the) (?:last|final) (?:goodbye|words)',
      `(?:wrote|written|writing|left) (?:a|my) (?:note|letter) (?:for|to) (?:my )?${KIN}`,
      '(?:wrote|written|writing|left) (?:a |my )?(?:suicide|goodbye|farewell) (?:note|letter)',
      '(?:written|wrote|left) my note\\b',
      // A message to the family sent from a place or before an end: "one last text to my brother".
      `(?:send|sending|write|writing|make|making) (?:one|a|my) (?:last|final) (?:text|message|call|letter) to (?:my )?${RELATION}`,
      "(?:please )?(?:don't|do not|dont) blame (?:yourselves|anyone|anybody)\\b",
      "(?:won't|wont|will not) be alive (?:next|by|after|in|for|on)\\b",
      "(?:dead|die|dies|died|death|not alive)\\b[^.?!]{0,40}\\?\\s*(?:i'm |im |i am )?asking for (?:myself|me)\\b",
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
      'this is the end\\b(?! of)',
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
      'nobody can (?:help|save) me\\b(?! (?:with|on|about|here))',
      '(?:point|use) (?:of|in) me\\b',
      "what's the point\\b[^a-z]{0,4}(?:of )?me\\b",
      'only way out(?! of (?:this|the|my|your) (?:contract|plan|subscription|deal|agreement|loop|menu|queue))',
      "(?:feel|feeling|i'm|i am) (?:so |completely |totally )?trapped(?! (?:in|by|with|into) (?:this|the|these|your|my|a) (?:contract|fees?|plans?|subscription|loop|menu|deal|system|queue|chat|app|cycle))",
      '(?:unbearable|unending|constant) (?:pain|suffering)',
      '(?:hate|hating) (?:my|this) life',
      "(?:i'm|i am) (?:worthless|a waste of space)",
      "(?:i've|i have) made (?:my peace|(?:the |my )?final arrangements)",
      '(?:saying|said) my goodbyes',
      'this is my last (?:day|night)\\b',
      "(?:won't|will not) be (?:a problem|a burden|around) (?:for you |to anyone )?(?:much longer|for long|any ?more)",
      "(?:won't|will not) have to deal with me (?:much longer|any ?more|for long)",
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
      `(?:${MEANS})\\s+(?:is |are )?(?:(?:on|by|at) (?:the|my) \\w+ )?(?:ready|in my hand|next to me|beside me|in front of me|tied|around my neck)`,
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
      '(?:tell|told|telling) (?:someone|somebody|anyone|you|a person)\\b[^.?!]{0,20}\\bbefore i (?:do it|go through with it|go)\\b',
      "(?:didn't|didnt|did not) (?:do it|go through with it)\\b[^.?!]{0,30}\\b(?:i will|i'll|ill|gonna|going to|will) (?:\\w+ )?(?:tonight|today|tomorrow|later)\\b",
    ),
  },
  {
    // Signs told in passing, as crisis-line guidance lists them: a place to end it and a time
    // ("going to the cliffs tomorrow"), looking up how, a means saved up or made ready, a goodbye
    // to whoever finds the message, finality ("the last bill I'll ever need", "I won't make it to
    // Christmas"), not wanting to exist, and the shorthand "ctb".
    name: 'told_in_passing',
    topic: 'self_harm',
    re: any(
      `${SELF}\\s+(?:\\w+\\s+){0,2}?(?:going|go|heading|walk(?:ing)?|driv(?:e|ing)) (?:to|down to|out to|up to) (?:the )?(?:cliffs?|railway(?: line)?|train tracks|tracks|quarry|motorway bridge|bridge|multi-storey|roof)(?=\\s*(?:[,.;!?]|$|tonight|tomorrow|today|now|later|in the|this|and|on|at the))[^.?!]{0,30}\\b(?:tonight|tomorrow|today|now|later|morning|on (?:mon|tues|wednes|thurs|fri|satur|sun)day|this weekend|at the weekend|and that'?ll be (?:that|it))`,
      '(?:swim|walk|wade) out (?:to|into) (?:the )?sea\\b',
      '(?:jump|jumped|jumping|tried to jump|going to jump) (?:off|from) (?:a|the|my)\\b',
      `(?:looked up|look up|googl\\w*|search(?:ed|ing)? (?:for|up)?|research(?:ed|ing)?) (?:how (?:many|much)(?: of)? (?:my )?(?:\\w+ )?(?:${PILLS})|(?:painless |quick |easy )?ways to (?:die|end it|kill myself)|how to (?:die|end it))`,
      `(?:saving|saved|been saving|stockpiling|hoarding) (?:up )?(?:my|all my|up my) (?:\\w+ )?(?:${PILLS})`,
      `enough (?:of )?(?:my )?(?:\\w+ )?(?:${PILLS}) to\\b`,
      "(?:i've |i have )?(?:made|tied|bought|got) (?:a|the) (?:noose|rope)\\b",
      '(?:if|when|whoever|for whoever) (?:someone |anyone |somebody )?finds? (?:this|these|them|me|it)\\b',
      "tell (?:her|him|them|my \\w+) (?:i'm|i am|im) sorry\\b",
      "(?:last|final) (?:bill|payment|message|thing) (?:i'll|i will|ill) ever (?:need|send)",
      "(?:won't|will not|wont|not going to) (?:make it|be (?:here|around|alive)) (?:to|until|till|past|for|through) (?:christmas|new year|my birthday|next (?:week|month|year)|the weekend|the end of)",
      '(?:like|want|wish|rather) (?:to )?not (?:to )?exist\\b|\\bstop existing\\b',
      '\\bmy (?:death|suicide)\\b(?! certificate)',
      "(?:you're|you are|your|ur|u r) the last (?:person|one) (?:i'm|im|i am|i'll|ill|i will) (?:ever )?(?:talk|speak)",
      // "probably the last person I'll ever talk to", "once I've done what I'm going to do", "so nobody has to go
      // through my stuff after", "a letter explaining why I did it".
      "\\blast (?:person|one|voice|people)\\b[^.?!]{0,12}\\b(?:i'll|i will|ill|i'm|im|i am|i'd|i) ever (?:talk|speak|chat|hear|see)\\b",
      "\\b(?:once|after|when) i(?:'ve| have)? (?:done|do|go through with) what i(?:'m| am|m) (?:going|gonna|planning) (?:to )?do\\b",
      '\\b(?:go|going|sort|sorting|clear|clearing) through my (?:stuff|things|belongings|affairs) (?:after|when|once)\\b',
      '\\b(?:letter|note)\\b[^.?!]{0,30}\\b(?:explaining|to explain|saying|telling (?:him|her|them)) why i (?:did it|had to do it|did this|had to)\\b',
      '(?:nobody|no one|noone) will have to (?:deal with|worry about|put up with|clean up) (?:me|my)\\b',
      '\\bctb\\b',
      '(?:stopped|stop) taking my (?:meds|medication|tablets|pills)\\b[^.?!]{0,40}\\b(?:waiting|point|end|stop|care)',
      'waiting for (?:it|everything|it all) to (?:stop|end)\\b',
      '(?:stop|stopped) being a (?:cost|burden|drain|problem|weight) (?:to|on) (?:anyone|everyone|them|my)',
      // "I just want to disappear. I mean die", "he'll be the one who finds me", "I won't be calling
      // again, take care of yourselves", "giving everything away", "got pills, got vodka … tonight".
      '\\b(?:i mean|as in) (?:die|dying|dead|kill myself|end it)\\b',
      '\\b(?:be the one|is the one|will be the one) (?:who|that|to) finds? me\\b|\\bleft the door unlocked (?:for|so)\\b',
      "\\b(?:won't|will not|wont) be (?:calling|writing|messaging|contacting you|in touch) (?:again|any ?more)\\b[^]{0,60}\\b(?:take care|goodbye|bye|thank you|thanks)\\b|\\btake care of yourselves\\b",
      '\\bgiving (?:everything|it all|all my (?:stuff|things)) away\\b',
      `\\b(?:got|have|bought) (?:the |my |some )?(?:${PILLS})\\b[^.?!]{0,40}\\b(?:vodka|whisky|whiskey|wine|gin|alcohol|booze|drink)\\b|\\b(?:vodka|whisky|whiskey|wine|gin|alcohol|booze)\\b[^.?!]{0,40}\\b(?:${PILLS})\\b`,
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
    // Signs told in the middle of other business, as crisis-line guidance lists them, in the words
    // people use: a death asked about "for myself", "my last message to anyone", "not planning on
    // being here", "no one would care if I died", "decided not to continue", "nothing matters
    // anymore", "how much longer I can keep going", "my head keeps telling me to jump", "I have the
    // means", "tried to do it … next time", "this month is my last", a crisis line named.
    name: 'signs_in_context',
    topic: 'self_harm',
    re: any(
      "(?:dies|dead|die|death|not alive|passes away|passed away)\\b[^]{0,160}\\b(?:planning (?:mine|for mine|my own|ahead)|(?:asking|ask) for (?:myself|me)\\b|i(?:'m| am|m) planning\\b|before i (?:do (?:it|this)|go through with)|this is the week)",
      '(?:my )?last (?:message|text|words|email) (?:to|for) (?:anyone|anybody|everyone|you all|the world)\\b',
      'not (?:planning on|planning to|going to|expecting to) (?:be|being) (?:here|around|alive)\\b(?![^.?!]*\\b(?:mov|holiday|travel|abroad|away|trip|relocat|emigrat|visit|work)\\w*)',
      "if i (?:wasn't|wasnt|weren't|werent|was not|were not) (?:here|around|alive)\\b(?!\\s+(?:when|to|at|for|on|during|the|between|in|because|and the|yesterday|today|tomorrow|last|this)\\b)",
      "(?:no ?one|nobody|no-one) (?:would|will|'d)(?: even)? (?:care|notice|miss me)\\b[^.?!]{0,20}\\bif i (?:died|was gone|wasn't here|wasnt here|disappeared|wasn't around|killed myself|was dead)|(?:no ?one|nobody|no-one) (?:would|will|'d)(?: even)? (?:miss|notice) me\\b",
      '(?:decided|made (?:the|my) decision|chosen|choose) not to (?:continue|go on|carry on|keep going|live|stay alive)\\b(?! (?:with|the|my|using|paying|this|your))',
      '(?:looking up|scrolling|googl\\w*|search\\w*|reading up on|researching) (?:for )?(?:ways|how) to do it\\b|how to make it (?:painless|quick|quicker|look like an accident)\\b',
      'checking out\\b[^.?!]{0,30}\\bof (?:everything|life|it all)\\b',
      "(?:won't|will not|not going to|wont|don't|dont) need (?:the|my|a|this|it|any)\\b[^.?!]{0,20}\\bwhere i(?:'m| am|m) going\\b",
      'go away for good\\b|disappear for good\\b|(?:kindest|best) thing (?:i could do|i can do|for (?:everyone|them|her|him)) (?:is|would be) (?:to )?(?:go|leave|disappear|not be here|die)\\b',
      '(?:head|voices?|brain|mind) (?:keeps |keep )?(?:telling|tells|told) me to (?:jump|do it|end it|kill|hurt)\\b',
      'how (?:much )?longer i (?:can|could) (?:keep going|go on|carry on|hold on|take (?:this|it))\\b(?! (?:without|with (?:this|the|no)|on (?:this|the)))',
      "(?:i'm|im|i am) still (?:going to|gonna) do it\\b|(?:call(?:ed|ing|s)?|rang|ring(?:ing)?|phon\\w*|text(?:ed|ing)?|spoke|speaking|talk(?:ed|ing)?|were) (?:to |with )?(?:the )?(?:samaritans|crisis (?:line|team)|suicide (?:line|hotline))\\b",
      "(?:that was|that's|thats|this was) the last thing\\b[^]{0,30}\\b(?:goodbye|bye)\\b",
      '(?:stood|standing|stand) on a (?:chair|stool|ladder)\\b[^.?!]{0,30}\\b(?:belt|rope|cord|cable|scarf|noose)\\b',
      "nothing (?:matters|does) (?:anymore|any more)\\b|(?:it|this) (?:doesn't|does not|doesnt) matter (?:anymore|any more)[.,]? nothing does\\b",
      "(?:river|sea|canal|lake|bridge|cliff|water)\\b[^]{0,40}\\b(?:going to|gonna|will|i'll) follow (?:it|them)\\b",
      "(?:i'm|im|i am) (?:finishing|ending) it (?:this|tonight|today|tomorrow|on|next|soon)\\b",
      "i (?:have|'ve got|got) the (?:stuff|pills|tablets|means|things) (?:here|ready|with me|next to me)\\b|(?:have|got) the means\\b",
      "(?:tried|attempted) to do it\\b[^]{0,60}\\b(?:didn't work|get it right|next time|again)\\b|(?:try|do it) (?:again,? )?properly this time\\b|after i tried\\b[^]{0,40}\\btry again\\b",
      '(?:this|next) (?:month|week|weekend|year|christmas) (?:is|will be) my last\\b',
      "there(?:'ll| will) be no ?one here\\b(?![^.?!]*\\b(?:holiday|away|travel|abroad|moving|work|visit)\\w*)",
      `(?:written|wrote|writing) to (?:my )?${KIN}\\b[^]{0,40}\\b(?:understand|sorry|forgive|one day|before i go)\\b`,
      '(?:giving|gave|given) (?:all )?my (?:stuff|things|belongings|possessions) away\\b|the only thing left (?:to give up|to go|to sort) is me\\b',
      "(?:not going to|won't|will not|wont) need (?:any of it|anything|it|them) (?:after|past|beyond) (?:the \\d+\\w*|tonight|today|tomorrow|this week|\\w+day)\\b",
      'take it up with my estate\\b|my estate\\b[^]{0,20}\\bsoon\\b',
      'counted (?:them|the (?:pills|tablets))\\b[^]{0,30}\\benough\\b',
      "i(?:'m| am|m) (?:really |just )?not (?:ok|okay|alright)\\s*[.!]*$",
      // Canonical warning signs as crisis lines list them: "I don't see the point of going on",
      // "I don't think I'll be here next month", "stepping in front of the train", "my last week on
      // earth", "I keep looking at the train line", "maybe I should've jumped", "took 20 of my
      // sleeping pills", "I'm at the top of the car park", "I won't be here by next month".
      "(?:don't|do not|dont|can't|cannot|cant) see (?:the |any )?point (?:of|in) (?:going on|living|carrying on|being here|being alive|it all|anything anymore)\\b",
      "(?:don't|do not|dont) think i(?:'ll| will|ll) (?:still )?be (?:here|around|alive) (?:next|by|for|much longer|to see|in a)\\b(?![^.?!]*\\b(?:mov|holiday|travel|abroad|away|trip|relocat|emigrat|visit|work)\\w*)|\\bnot sure i(?:'ll| will|ll) (?:still )?be (?:here|around|alive) (?:next|by|for|much longer|to see)\\b(?![^.?!]*\\b(?:mov|holiday|travel|abroad|away|trip|relocat|emigrat|visit|work)\\w*)",
      "(?:won't|will not|wont) be (?:here|around|alive) by (?:next (?:week|month|year)|the end of|christmas|the weekend|\\w+day)\\b(?![^.?!]*\\b(?:mov|holiday|travel|abroad|away|trip|relocat|emigrat|visit|work)\\w*)",
      '(?:step|stepping|stepped|jump|jumping|walk|walking|throw myself|throwing myself) in front of (?:a|the) (?:train|bus|lorry|truck|car|tube)\\b',
      'last (?:week|day|days|night|month|christmas|birthday) on (?:earth|this planet)\\b|not (?:sticking|staying|hanging) around on this (?:planet|earth)\\b',
      'keep (?:looking at|staring at|thinking about|going back to) (?:the )?(?:train line|railway|tracks|bridge|edge|balcony|rope|pills|tablets)\\b',
      "(?:should(?:'ve| have)|should of|shouldve) jumped\\b",
      `took (?:like |about |around |maybe )?\\d+ (?:of )?(?:my |the |her |his |mum'?s |mom'?s |dad'?s )*(?:\\w+ )?(?:${PILLS})\\b`,
      "i(?:'m| am|m) (?:at|on) the (?:top|edge|roof) of (?:the |a )?(?:car park|multi[\\s-]?storey|building|bridge|cliff|tower)\\b",
      'the note is on the (?:kitchen |dining )?table\\b|tied up (?:every |all )?(?:other |my )?loose ends?\\b[^]{0,40}\\b(?:note|last|goodbye)\\b',
    ),
  },
  {
    // Danger and emergencies told in passing: violence now, trafficking, a threat with a place and a
    // time, a stroke's signs, a double dose, a flood on the stairs, a gas smell, trapped by snow,
    // lost as it gets dark, pinned under something.
    name: 'danger_in_context',
    topic: 'danger',
    re: any(
      '(?:being|is being|getting) violent\\b|thrown (?:her|him|me|them) (?:against|into|down|across)\\b',
      "(?:he|she|they)(?:'s| is| are) (?:hitting|beating|hurting|attacking|strangling|choking|kicking|punching) (?:her|him|them|my \\w+)\\b",
      'owe (?:them|him|her) (?:money )?for (?:bringing|getting|taking) (?:me|us)\\b',
      "bring (?:security|the police|backup|guards)\\b[^.?!]{0,20}\\b(?:won't|will not|wont|not going to) help\\b",
      '(?:try|tried|trying) to (?:push|force|break) (?:his way |her way |their way )?(?:in|inside|through the door)\\b|kicking (?:the|my) door\\b|shouting and kicking\\b',
      '(?:waiting|be waiting) with (?:my|a) (?:shotgun|gun|rifle|knife|bat|axe)\\b|\\b(?:anyone|anybody|whoever)\\b[^.?!]{0,50}\\bgets? shot\\b',
      "(?:got|have|found) (?:your|the|his|her) (?:ceo|boss|manager|director|agent|employee|staff member)(?:'s)?(?: \\w+(?:'s)?)? (?:home )?address\\b",
      "(?:i'm|i am|im) (?:sat|sitting|parked|waiting|standing) outside (?:it|there|his|her|their)\\b[^]{0,60}\\bor i\\b",
      '(?:shoved|pushed|threw|thrown) (?:my \\w+|her|him|me|them) (?:down|into|against|off|through)\\b',
      '(?:he|she|they) (?:hits|beats|hurts|chokes|kicks|punches) (?:her|him|them|my \\w+)\\b(?! (?:with (?:a|the) (?:bill|fee|charge|price|email)|off))',
      "(?:in|inside) (?:the|a) lift\\b[^]{0,60}\\b(?:stuck|hours?|minutes)\\b[^]{0,60}\\b(?:hot|stuffy|can't breathe|panic)",
      "flames (?:coming|are coming|pouring|shooting) (?:from|out of)\\b|(?:is|'s) smoking and\\b|gone up in flames\\b|(?:spreading|spread) to the (?:ceiling|roof|kitchen|house|stairs|landing)\\b",
      '(?:keys?) (?:are|is|locked) inside with (?:her|him|them|the baby)\\b',
      '(?:someone|somebody|a man|a stranger|men|people) (?:is |are )?(?:in|at) (?:my|the|our) (?:garden|house|flat|door|window|yard|drive)\\b[^.?!]{0,20}\\bwith (?:a|an) (?:crowbar|knife|gun|bat|machete|axe|hammer)\\b|there are men at (?:my|the) door\\b',
      "(?:can't|cannot|can not|couldn't) get (?:her|him|them|my \\w+) out\\b(?! of)|(?:trapped|pinned|stuck) under (?:the|a)\\b",
      "water(?:'s| is)? (?:halfway|half way|up) (?:up )?the stairs\\b|river(?:'s| has)? burst\\b",
      'gas (?:smell|leaking)\\b|\\bgas\\b[^.?!]{0,20}\\bleaking\\b',
      "(?:trapped|stuck|stranded) in (?:the|our|my) car\\b[^]{0,60}\\b(?:snow|minus|freezing|fuel|cold)\\b|snow(?:'s| has) (?:got )?(?:us |me )?trapped\\b",
      "(?:i'm|im|i am|we're|we are) lost\\b[^]{0,60}\\b(?:getting dark|fog|temperature|freezing)\\b",
      'below freezing\\b[^.?!]{0,20}\\b(?:in here|inside|indoors)\\b',
      // Threats and danger in their common words: "he's going to finish me", "he's a dead man", "put a
      // bullet in", "break my legs", "he'll hurt the kids", "scared to leave the house", "getting
      // what's coming to him", a sextortion demand, hiding in the wardrobe, smoke in the carriage, an
      // oxygen machine stopped, pinned by a quad bike.
      "(?:going to|gonna|will|'ll) finish (?:me|her|him|us)\\b(?! off (?:the|my|this))|\\b(?:he's|he is|you're|you are|she's|she is|your manager's) a dead (?:man|woman)\\b|\\bput a bullet in\\b",
      '(?:break|breaking|smash|smashing) (?:my|your|his|her) (?:legs|arms|neck|face|knees)\\b',
      "(?:he|she|they)(?:'ll| will| would|'d| is going to|'s going to| said (?:he|she|they)(?:'d| would| will))? (?:hurt|harm|kill|take) (?:the|my|our) (?:kids|children|baby|son|daughter|little one)\\b",
      "(?:scared|afraid|terrified|too scared) to (?:leave|go out of|step out of) (?:the|my) (?:house|flat|home)\\b|(?:he's|he is|she's|they're) (?:getting|going to get) what's coming\\b",
      "if i (?:don't|do not|dont) pay\\b[^.?!]{0,40}\\b(?:they'll|they will|he'll|she'll|they are going to) (?:send|post|share|publish|release|leak)\\b[^.?!]{0,40}\\b(?:recording|video|photos?|pictures?|pics|images?)\\b",
      "(?:hiding|hidden|i'm|i am) in (?:the|a|my) (?:wardrobe|cupboard|closet|loft)\\b[^]{0,40}\\b(?:baby|kids|children|quiet|scared|him|door)\\b|heard (?:the )?glass (?:break|smash)",
      'smoke in (?:our|the|my) (?:carriage|car|room|flat|house|building|train)\\b',
      'oxygen (?:machine|concentrator|supply)\\b[^.?!]{0,30}\\b(?:stopped|off|failed|died|not working|gone)\\b|(?:rolled|fallen|fell|landed) (?:on|onto) (?:my|his|her) (?:leg|legs|chest|arm)\\b',
    ),
  },
  {
    // Someone else's emergency told by its signs: a face dropped on one side, slurring, a double
    // dose of heart tablets, a heart going very slow.
    name: 'medical_in_context',
    topic: 'medical',
    re: any(
      '(?:face|mouth|smile) (?:has )?(?:dropped|drooping|droops|drooped)\\b|one side of (?:her|his|their|my) face\\b|\\bslurring\\b',
      "think (?:it's|its|she's having|he's having|they're having) a (?:stroke|heart attack|seizure)\\b",
      'pressed (?:his|her|their) (?:pendant|panic|emergency|personal) (?:alarm|button)\\b|(?:might|may|could) (?:be|have been) (?:lying )?on the floor\\b',
      '(?:took|taken|has taken) (?:her|his|their|my) (?:tablets|pills|medication|meds|insulin) (?:twice|double|two times)\\b|heart (?:is )?(?:going|beating) (?:very |really |so )?(?:slow|slowly)\\b',
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
      `(?<!(?:business|company|market|tent|shelf|roof|deal|economy|prices|plan|plans|talks|negotiations|app|site|website|server|system|page) (?:has |had |just |suddenly )?)collapsed(?! (?:the|a|an|my|our|his|her|it|them|its|their)\\b)`,
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
      "(?:can't|cannot|couldn't) wake (?:him|her|them|my \\w+)(?: up)?",
      'foaming at the mouth',
      '(?:severe|crushing|bad) chest pain',
      'epi-?pen',
      "bleeding (?:won't|will not|doesn't|does not) stop",
      "(?:fell|fallen) and (?:can't|cannot|couldn't) get up",
      "(?:floppy|limp) and (?:won't|not|isn't)",
      'head injury',
      'kill(?:ing)? (?:himself|herself|themselves)',
      '(?:going to|gonna|wants to|will|trying to) (?:end (?:his|her|their) life|hurt (?:himself|herself|themselves))',
    ),
  },
  {
    // An emergency happening now, told in passing: a fire, a flood rising, capsized, stuck in a
    // lift for hours, lost on the moor as it gets dark, broken down on a level crossing.
    name: 'emergency_now',
    topic: 'danger',
    re: any(
      '(?:caught|catching) fire\\b',
      "(?:router|shelf|it|cable|socket|plug|hub|box|charger|phone|laptop|blanket|bin|garage|shed|roof|wiring|wire|tv|oven|pan)(?:'s| is| are) on fire\\b",
      '(?:full of|thick|filling with) smoke\\b',
      "(?:flooding|flooded|filling with water) (?:fast|quickly|now|right now)\\b|water(?:'s| is) (?:up to|over) my (?:knees|waist|chest|ankles)",
      "\\b(?:basement|cellar|house|room|kitchen|flat|ground floor|downstairs|car)(?:'s| is| keeps)? (?:filling|flooding)(?: up)? with water\\b|\\bup to my (?:knees|waist|chest|neck)\\b[^.?!]{0,20}\\b(?:rising|coming in|getting higher)\\b",
      'capsized\\b',
      "(?:stuck|trapped) in (?:a|the) (?:lift|elevator)\\b[^.?!]{0,60}\\b(?:hours?|alone|on my own|hot|can't breathe|panic)",
      "(?:i'm|i am|im|we're|we are) (?:lost|stranded) (?:on|in) (?:the |a )?(?:moor|moors|mountain|hills?|woods|forest|fells)\\b",
      'broken down on (?:a|the) (?:level crossing|railway|train tracks|hard shoulder)\\b|barriers are coming down\\b',
      "(?:i'm|i am|im|we're|we are|we|i)(?:'re| are| am)? (?:stuck|trapped) in (?:a|the|our|an) (?:lift|elevator|cave|car|basement|room)\\b[^.?!]{0,80}\\b(?:hot|hours?|minutes|tide|water|smoke|can't (?:get|climb) out|cannot (?:get|climb) out|battery)",
      "(?:fire|wildfire|flood|water|tide)(?:'s| is| has)? (?:jumped|coming (?:towards|in|up)|spreading|rising)\\b",
      '(?:told|ordered|asked) to (?:evacuate|get out|leave (?:the|our) (?:house|homes?|village))\\b',
      '(?:listing|sinking|capsizing)\\b[^.?!]{0,40}\\blife ?jackets?\\b|\\blife ?jackets? on\\b',
      '(?:fallen|fell|gone) through the ice\\b',
      "\\b(?:a foot|two feet|\\d+ (?:feet|foot|inches|cm)|knee) deep\\b[^.?!]{0,40}\\b(?:coming in|rising|flooding|water)\\b|\\b(?:whole|entire) (?:street|road|village|town)(?:'s| is) flooding\\b",
      '(?:an )?explosion\\b[^.?!]{0,60}\\b(?:cloud|smoke|fire|injured|hurt|coughing)\\b|(?:toxic|yellow|chemical) cloud\\b',
      "(?:the )?tide is coming in\\b[^.?!]{0,40}\\b(?:stuck|trapped|can't|cannot)\\b|(?:stuck|trapped)\\b[^.?!]{0,40}\\btide is coming in\\b",
    ),
  },
  {
    // Someone else's medical emergency, told in passing: something swallowed, a lot of blood, a
    // stabbing, a fall and no answer, labour come early, on the floor for hours.
    name: 'medical_told',
    topic: 'medical',
    re: any(
      '(?:ate|eaten|swallowed|drank|drunk) (?:some |a |one of )?(?:of )?(?:the |my |a )?(?:dishwasher tablets?|washing (?:tablets?|pods?|capsules?)|detergent|bleach|button batter(?:y|ies)|batter(?:y|ies)|magnets?|pills|tablets)\\b',
      '(?:a lot of|lots of|so much|loads of) blood\\b|pumping blood\\b|(?:been|got) (?:stabbed|shot)\\b(?! to (?:pieces|bits)| down\\b)',
      `(?:been|lying) on the floor (?:for|since)\\b|${SOMEONE}(?:'s| has) fallen\\b[^.?!]{0,40}\\b(?:not answering|can't get up|cannot get up|won't answer|hurt)`,
      'went into (?:early )?labou?r\\b|(?:waters|water) (?:has|have) broken\\b',
      'shouting for help\\b',
      "(?:been )?(?:fitting|having a seizure|seizing|convulsing)\\b[^.?!]{0,30}\\b(?:minutes?|not stopping|won't stop|hasn't stopped)",
      "(?:sugar|blood sugar|glucose)(?:'s| has| is)? (?:crashed|dropped|very low|too low|through the floor)\\b",
      "(?:can't|cannot|not able to|unable to|isn't able to|is not able to) (?:swallow|get up|stand up|speak properly)\\b",
      "(?:heart|pulse)(?:'s| has| had)? (?:stopped|stopping|racing and)\\b",
      '(?:dizzy|confused|sweaty|grey|gray|clammy|pale) and (?:grey|gray|sweaty|shaking|clammy|confused|pale|not making sense)\\b',
      '(?:lying|lay) (?:in|on) (?:the|his|her|their) (?:hallway|hall|floor|stairs|bathroom floor|kitchen floor)\\b',
      "\\b(?:fallen|fell|collapsed)\\b[^.?!]{0,40}\\b(?:cold|not speaking|not talking|won't speak|can't speak|not moving)\\b",
      '\\b(?:temperature|fever) of (?:4\\d|10[3-9])\\b|\\beyes (?:are )?rolling\\b',
      "\\b(?:locked|trapped|stuck) (?:herself|himself|themselves|in) (?:in )?(?:the|a|my) car\\b[^.?!]{0,80}\\b(?:degrees|hot|heat|red|crying|can't|cannot)\\b",
    ),
  },
  {
    // Danger told as what is happening: someone outside or inside who should not be, a door tried,
    // being locked in or held, papers taken, a forced marriage, a threat to find someone's family.
    name: 'danger_told',
    topic: 'danger',
    re: any(
      "(?:he|she|they|someone|somebody|a man|a woman|my ex)(?:'s| is| are| has been| keeps)? (?:\\w+ )?(?:standing |waiting |parked |sitting )?outside (?:the|my|our) (?:flat|house|door|window|home|building)\\b",
      "(?:he|she|they)(?:'s| is| are) outside (?:right now|now|again)\\b",
      'tried (?:the|my|our) (?:door|door handle|window|lock)\\b',
      "(?:someone|somebody|a man|a stranger|people|he|she)(?:'s| is| are) (?:still )?in (?:my|the|our) (?:house|flat|home|room)\\b(?! (?:to|for) (?:fix|install|repair|the))",
      'heard (?:glass|the window|a window|the door) (?:break|smash|go)\\b',
      "(?:he|she|they) (?:won't|will not|wont) (?:leave|let me (?:go|leave|out))\\b",
      "(?:i'm|i am|im) (?:hiding |locked )?in (?:the|my) \\w+ with the door locked\\b",
      '(?:he|she|they|my (?:husband|wife|partner|boyfriend|girlfriend|ex|dad|father|mum|mother|son|brother)) (?:locks?|locked|keeps locking|has locked) me (?:in|inside|up)\\b',
      '(?:taken|took|takes|has) my passport\\b',
      '(?:take|taking) me (?:abroad|away|overseas)\\b[^.?!]{0,40}\\bmarr(?:y|ied|iage)',
      '(?:held|kept|locked) in (?:the back of )?(?:a|the) (?:van|car|boot|trunk|room|basement)\\b',
      "(?:don't|do not|dont) know where i am\\b",
      "(?:i'm|i am|im|he's|he is|they're) coming for you\\b",
      "(?:i'll|i will|ill|gonna|going to) put (?:him|her|them|you|one of (?:them|you)) in the ground\\b",
      "i know (?:where )?(?:her|his|their|your) kids'? (?:go to )?school\\b",
      "cut the (?:phone )?(?:line|cable|wire) so i (?:can't|cannot|can not) (?:call|phone|ring)\\b",
      '\\b(?:glass|a window|the window|the door|plates) (?:is |are )?(?:breaking|smashing|being smashed|being broken)\\b',
      "\\b(?:he|she|they|someone|somebody)(?:'s| is| are) (?:at|outside|by) (?:my|the|our) (?:window|door|back door|front door)\\b",
      '\\b(?:going to|gonna|will) (?:kill|hurt|stab|shoot) the next (?:person|one|agent|guy|member of staff)\\b',
      "\\bi know (?:your|the|their|his|her) (?:\\w+ )?(?:manager's|staff's|agent's|boss's) (?:car|house|address|kids?)\\b",
      "\\b(?:demanding|want|wants|asking for) (?:money|payment|bitcoin|\\d+)\\b[^.?!]{0,40}\\bor (?:they'll|they will|he'll|she'll|i'll) (?:publish|post|share|send|release|leak)\\b",
      '\\b(?:photo|picture|pic) of my (?:front )?(?:door|house|flat|window|car)\\b[^.?!]{0,30}\\b(?:from outside|outside)\\b',
      '\\b(?:restraining|non-molestation|protection) order\\b[^.?!]{0,60}\\b(?:breaking|broke|breaching|outside|here|now)\\b',
      "(?:he|she|they|a man|a woman|someone|somebody)(?:'s| is| keeps| kept)? (?:watching|tracking|following) (?:me|my (?:phone|location|every move))\\b",
      '(?:keeps|kept) (?:finding|turning up|showing up)\\b[^.?!]{0,40}\\b(?:every time|wherever|where i)\\b|(?:turns|turned|showed|shows) up at my (?:new )?(?:work|house|flat|door|school)\\b',
      "(?:knew|knows) (?:what i'm wearing|what i am wearing|where i (?:live|am|work)|the bus i)\\b|described what i(?:'m| am) wearing\\b",
      '(?:takes|took|taking|steals|stole) my (?:pension|benefits|money|bank card)\\b[^.?!]{0,60}\\b(?:push|pushes|hit|hits|hurt|hurts|shout|scared|afraid|threat)',
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
      `(?:he|she|they|${RELATION}|my (?:carer|ex|landlord|stepdad|stepfather|stepmum|stepmother))(?: is| keeps| has been| always| still)? (?:hurting|hitting|beating|pushing|shoving|slapping|pinching|kicking|punching|choking|strangling) me\\b`,
      `(?:he|she|they|${RELATION}|my (?:carer|ex|landlord))\\b[^.?!]{0,20}\\b(?:hurts|hits|pushes|shoves|slaps|pinches|kicks|punches) me\\b(?! (?:with (?:a|the) (?:bill|fee|charge|price|email)|off))`,
      // A threat to staff told as what the customer will do: "I've got petrol and I'll be there by 4",
      // "I'm sat outside his house … or I go in", "I'm going to strangle her".
      "(?:i've got|i have|i've|got|bought) (?:some |a |a can of |a jerry can of )?(?:petrol|gasoline|lighter fluid|acid)\\b[^.?!]{0,40}\\b(?:i'll|i will|ill|gonna|going to|and)\\b",
      // "I will find out where she lives", "came at me with a hammer", "he'll burn the house down with me in it".
      '\\b(?:find out|found out|know|find) where (?:she|he|they|you|your \\w+|that \\w+) lives?\\b[^.?!]{0,40}\\b(?:regret|pay|sorry|hurt|deal with|visit|wait|see)\\b',
      '\\b(?:came|come|comes|coming|went|going) at (?:me|us|my \\w+|him|her) with (?:a|an|the|his|her|their) (?:knife|hammer|bat|baseball bat|machete|axe|screwdriver|crowbar|bottle|broken bottle|iron bar|gun|blade)\\b',
      '\\b(?:burn|set fire to|torch) (?:the|my|our) (?:house|flat|home|place)(?: down)? with (?:me|us|the kids|my \\w+|them) (?:in|inside) (?:it|there)\\b|\\bthreaten\\w* to (?:burn|torch|set fire to) (?:the|my|our|me|us)\\b',
      "(?:i'm|i am|im) (?:sat|sitting|parked|waiting|standing) outside (?:his|her|their|your (?:agent|staff|manager)\\w*)\\b",
      "(?:i'm|i am|im) (?:going to|gonna) (?:strangle|stab|shoot|batter|smash (?:her|his|their) (?:face|head))\\b",
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
      "(?:he|she|they)(?:'s| is| are| has| have) (?:got )?a (?:knife|gun|weapon|bat|hammer)\\b(?! (?:sharpener|block|set|drawer|holder|case|licen[cs]e|safe|rack|stand|order|delivery))",
      '(?:trying|try) to get in\\b',
      "(?:i'm|i am) hiding (?:from (?:him|her|them|my \\w+|someone|somebody|a man)|in (?:the|my) (?:bathroom|bedroom|closet|cupboard|wardrobe|car|attic|basement))",
      "(?:won't|will not) let me (?:leave|go|out)",
      'held against my will',
      "(?:i'm|i am|we're|we are) locked in\\b",
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
  /\b(?:last (?:year|month|week|summer|winter|spring|autumn)|(?:a few |two |three |\d+ )?(?:years?|months?) ago|(?:a|one|two|three|four|five|six|a few|a couple of|\d+) (?:weeks?|days?) ago|in (?:19|20)\d\d|used to|recovered|history of|back in)\b/;

/**
 * An illness told as the reason for a plan — "my mother is really sick and I need to get home to
 * take care of her" — with no sign of an emergency now: a reason to travel or to change a
 * booking, not a crisis to hand over. Any acute sign (collapsed, not breathing, an ambulance…) keeps it one.
 */
export const MEDICAL_CARE =
  /^(?!.*\b(?:collaps\w*|not breathing|can't breathe|cannot breathe|unconscious|unresponsive|bleeding|ambulance|emergency|999|911|112|seizure|fitting|stroke|heart attack|overdos\w*|chok\w*|right now|passed out|dying)\b).*\b(?:is|are|'s|has been|have been|got|fell|became) (?:really |very |so |quite |seriously |gravely )?(?:sick|ill|unwell|poorly|in hospital|in the hospital)\b.*\b(?:take care of|look after|care for|be with|visit|see (?:her|him|them)|get (?:back )?home|go home|fly|travel|come home|be there)\b/;

/** "I nearly had a heart attack when I saw the bill": a figure of speech, not an emergency. */
export const MEDICAL_HYPERBOLE =
  /\b(?:nearly|almost|practically|gave me|give me|giving me|going to give me|gonna give me|could have had|about to have)\b(?:\s+\w+){0,2}\s*$/;

/**
 * Figures of speech that use the words of a crisis for something else: "my mum is going to kill me
 * when she sees this bill", "held hostage by this contract", "affairs in order before I move",
 * "better off without me on the family plan", "a goodbye letter to your company", "I'd jump off a
 * cliff for unlimited data", "my phone has been suicidal", "done with life admin", "bruh I'm dead",
 * "I'll be gone for two weeks", "the bridge club tonight".
 * A warning sign inside one of these is not read; one elsewhere in the text still is.
 */
export const SAFETY_IDIOM = new RegExp(
  [
    "\\b(?:is |are |'s |'re )?(?:going to|gonna|will|'ll) kill (?:me|us) (?:when|if|once) (?:she|he|they|my \\w+|the \\w+) (?:sees?|finds? out|hears|gets|opens|reads)\\b",
    '\\bheld hostage by (?:this|the|your|my|a) (?:contract|company|bill|plan|provider|network|subscription|deal|router|app)\\b',
    // A thing held hostage is a grievance: "you're holding my number hostage", "keeping our deposit hostage".
    '\\b(?:held|holding|hold|holds|keeping|keep|keeps|kept)(?: on to)? (?:my|our|the) (?:phone |mobile |old )?(?:number|account|money|deposit|refund|data|line|pac(?: code)?|contract|broadband|router|funds|cash|details|email|photos|credit)s? hostage\\b',
    "\\baffairs in order (?:before|as|since|because|for) (?:i'm |i am |i |we're |we )?(?:move|moving|go|going|leave|leaving|emigrat\\w*|retir\\w*|travel\\w*|relocat\\w*)\\b",
    '\\bbetter off without me on (?:the|our|my) (?:family )?(?:plan|account|contract|bill|bundle)\\b',
    '\\bgoodbye letter to (?:your|the|this) (?:company|provider|network)\\b',
    '\\bdone with life admin\\b',
    "\\b(?:i'd|i would|id) (?:jump off a (?:cliff|bridge)|kill|die|sell my soul) for\\b",
    '\\bmy (?:phone|laptop|router|battery|computer|tv|app|tablet|mobile|hub|box) (?:has been|is|was|keeps being|seems|is being) (?:suicidal|dying|dead)\\b',
    "\\b(?:bruh|lol|lmao|haha)\\b[^.?!]{0,12}\\bi(?:'m| am|m) dead\\b|\\bi(?:'m| am) dead (?:lol|lmao|haha|bruh)\\b",
    '\\bthe walking dead\\b',
    // Away for a stated while is a trip, not a farewell: "I'll be gone for two weeks", "away till Monday".
    '\\b(?:gone|away|off) (?:for (?:a|an|one|two|three|four|five|six|\\d+|a few|a couple of|several|the) (?:days?|weeks?|months?|nights?|weekends?|week|summer|holidays?)|(?:until|till|til) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|next \\w+|the \\d+\\w*|\\d+\\w*|the end of \\w+))\\b',
    // What a film or a book is about ("a documentary about a hostage situation", "the film had a
    // suicide scene") — never what the customer says of themselves ("a story about how I want to die").
    "\\b(?:films?|movies?|books?|novels?|documentar(?:y|ies)|episodes?|series|shows?|games?|podcasts?|articles?|stor(?:y|ies)|thrillers?|dramas?|plays?|songs?|trailers?|audiobooks?|ebooks?|e-books?) (?:about|featuring|in which|where|called)\\b(?:\\s+(?!(?:i|me|my|myself|i'm|im|i've|ive|mine)\\b)\\S+){0,5}",
    '\\b(?:a|the|that) (?:suicide|murder|hostage|death|shooting|stabbing|kidnapping|overdose|bomb|explosion|fight|drowning) (?:scene|episode|chapter|storyline|plot|subplot)s?\\b',
    // A tradesperson at the house: "someone is in my house to fix the boiler".
    "\\b(?:some(?:one|body)|an? (?:engineer|plumber|electrician|technician|builder|fitter|decorator|cleaner|man|guy)|the (?:engineer|plumber|electrician|technician|builder|fitter)) (?:is|'s|are) (?:in|at|round|over at) (?:my|our|the) (?:house|flat|home|place)(?: right now| now)? to (?:fix|repair|install|read|check|service|look at|fit|clean|paint|set up)\\b",
    // Feelings and possessions in a crisis's words: "my patience is on fire", "my wallet is dying".
    "\\bmy (?:patience|nerves|temper|inbox|wallet|bank account|bank balance|budget|sanity|brain cells?) (?:is|'s|are|'re|has been|have been|was) (?:on fire|burning|exploding|dying|dead|drowning|bleeding)\\b",
    // A customer unsure of their own words or of the chat: "I'm not sure I'm saying this right",
    // "(I think that's what it's called)", "I'm not very good with these things", "bear with me".
    "\\b(?:i'm |i am |im )?not sure (?:i'm|i am|im|if i'm|if i am|that's|that is|thats|this is|it's|its) (?:saying (?:this|it|that) right|(?:the )?right (?:word|way|term|thing to say))\\b|\\b(?:i think |i believe )?(?:that's|that is|thats) what (?:it's|it is|its|they're|they are) called\\b|\\b(?:i'm|i am|im) not (?:very |so |too |that )?(?:good|great|confident) (?:with|at) (?:these things|this|computers|technology|tech|phones|typing|english)\\b|\\bbear with me\\b|\\bi don't (?:really )?know how (?:this|the) (?:chat|thing|app|website|site) works\\b",
    // Things that collapse: "the bridge he built in Minecraft collapsed", "the wifi collapsed".
    '\\b(?:bridge|tower|tent|cake|signal|wifi|network|connection|market|deal|plan|sandcastle) (?:\\w+ ){0,6}?collapsed\\b',
    // Bridge the card game.
    '\\bbridge (?:club|game|night|evening|tournament|partners?|lessons?|table)s?\\b',
  ].join('|'),
  'g',
);

/**
 * A hazard told as over and dealt with: "we had a gas leak in October, all fixed", "set the kitchen
 * on fire making toast (just smoke, all fine)", "a fire next door, nobody hurt". Read over the
 * whole message (the resolution is often its own clause); group 1 is the hazard's word.
 */
export const RESOLVED_HAZARD =
  /\b(gas leak|fire|flood|leak|smoke|carbon monoxide|burst pipe|power cut)\b[^.?!]{0,60}?\b(?:all (?:fixed|sorted|fine|ok|okay|good|clear)|(?:now|since|been|was|were|got|is|it's) (?:fixed|sorted|repaired|put out|resolved|cleared)|fine now|no ?one (?:was |got )?hurt|nobody (?:was |got )?hurt)\b/;
