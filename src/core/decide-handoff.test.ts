import { describe, expect, it } from 'vitest';
import { DeciderPolicySchema, type DeciderPolicyInput } from './decider-policy.js';
import { HARD_TRIGGERS, SAFETY_RESPONSE, SOFT_TRIGGERS, decideHandoff, decideTranscript } from './decide-handoff.js';
import type { Signal } from './handoff-signals.js';
import { DECIDER_REASONS, type DeciderReason, type TranscriptItem } from './transcript.js';

const c = (text: string): TranscriptItem => ({ role: 'customer', text });
const a = (text: string): TranscriptItem => ({ role: 'agent', text });
const tool = (
  name: string,
  ok: boolean,
  output = ok ? '{"status":"ok"}' : 'Error: upstream returned 500',
  args: Record<string, unknown> = {},
): TranscriptItem => ({
  role: 'tool',
  name,
  arguments: args,
  ok,
  output,
});
const fail = (name = 'lookup_order', output?: string) => tool(name, false, output);
const succeed = (name = 'lookup_order') => tool(name, true);
const write = (amount: unknown, name = 'issue_refund', argument = 'amount') =>
  tool(name, true, '{"status":"done"}', { [argument]: amount, order_id: 'W123' });

const LIMIT: DeciderPolicyInput = { autonomousLimit: 100 };
const CAPS: DeciderPolicyInput = {
  capabilities: [
    { intent: 'refund', keywords: ['refund', 'money back', 'reimburse', 'duplicate charge', 'charged twice'] },
    { intent: 'change_email', keywords: ['email', 'e-mail'] },
    { intent: 'order_status', keywords: ['track', 'delivery', 'shipping', 'arrive', 'where is my order'] },
  ],
};

type Row = [label: string, messages: string | TranscriptItem[], expected: DeciderReason | null, policy?: DeciderPolicyInput];

const table: Record<string, Row[]> = {
  'direct request for a person': [
    ['speak to a human', 'let me speak to a human', 'customer_request'],
    ['supervisor', 'get me your supervisor', 'customer_request'],
    ['real person', 'I want a real person', 'customer_request'],
    ['manager with topic', "I'd like to speak to a manager about my bill", 'customer_request'],
    ['representative', 'I need to speak with a representative', 'customer_request'],
    ['demand superior', 'I demand to speak to your superior.', 'customer_request'],
    ['live agent', 'Can I get a live agent please', 'customer_request'],
    ['human being', 'I want to talk to an actual human being', 'customer_request'],
    ['put through', 'put me through to a real person', 'customer_request'],
    ['connect colleague', 'Could you connect me to one of your colleagues?', 'customer_request'],
    ['hand over', 'Hand me over to a specialist please', 'customer_request'],
    ['give me a human', "Give me a human or I'm cancelling", 'customer_request'],
    ['customer service', 'connect me with customer service', 'customer_request'],
    ['billing team', 'I want to talk to your billing team', 'customer_request'],
    ['bare human', 'Human!', 'customer_request'],
    ['bare agent caps', 'AGENT', 'customer_request'],
    ['bare representative', 'representative please', 'customer_request'],
    ['bare operator', 'OPERATOR!!!', 'customer_request'],
    ['imperative talk', 'Talk to a human.', 'customer_request'],
    ['telegraphic', 'speak to agent', 'customer_request'],
    ['get supervisor on', 'Get a supervisor on this chat now', 'customer_request'],
    ['put manager on', 'Can you put a manager on?', 'customer_request'],
    ['someone in charge', 'Let me talk to someone in charge', 'customer_request'],
    ['own words repeated', 'I already told you I want a human', 'customer_request'],
    ['reminder of promise', 'you said you would transfer me', 'customer_request'],
    ['waiting for one', "I'm still waiting for a human", 'customer_request'],
    ['find one', 'Where do I find a human around here', 'customer_request'],
    ['someone from billing', 'Please have someone from billing contact me', 'customer_request'],
    ['gerund', "I'd appreciate speaking to a staff member", 'customer_request'],
    ['the agent from before', 'I want to talk to the agent from yesterday', 'customer_request'],
  ],
  'indirect request for a person': [
    ['someone real', 'is there someone real I can talk to', 'customer_request'],
    ['person look', 'can a person look at this', 'customer_request'],
    ['transfer me', 'transfer me', 'customer_request'],
    ['talk to someone', 'Can I talk to someone please?', 'customer_request'],
    ['is there a human', 'Is there a human I can talk to?', 'customer_request'],
    ['any chance', 'Any chance I could talk to an actual human being?', 'customer_request'],
    ['wondering', 'I was wondering if I could speak to a manager', 'customer_request'],
    ['how do I', 'How do I speak to a human?', 'customer_request'],
    ['why cannot I', "Why can't I talk to a human?", 'customer_request'],
    ['available', 'Is a human available?', 'customer_request'],
    ['callback', 'Can someone call me?', 'customer_request'],
    ['escalate', 'Please escalate this', 'customer_request'],
    ['rather a person', "I'd rather deal with a person", 'customer_request'],
    ['prefer to chat', "I'd prefer to chat with a person if that's OK", 'customer_request'],
    ['done with bot', "I'm done with this chatbot", 'customer_request'],
    ['no robot', "Please don't make me talk to a robot", 'customer_request'],
    ['no bot', "I don't want to talk to a bot", 'customer_request'],
    ['bot then human', "I don't want a bot I want a human", 'customer_request'],
    ['someone competent', "Pass me over to someone who knows what they're doing", 'customer_request'],
    ['reach live agent', "I'm trying to reach a live agent", 'customer_request'],
    ['human reviews', 'I need a human to look at my account', 'customer_request'],
    ['want it escalated', 'I want this escalated', 'customer_request'],
    ['manager question', 'Who can I speak to about this? A manager?', 'customer_request'],
    ['word with', 'Could I have a word with the manager', 'customer_request'],
  ],
  'asked by availability, by "one", or for a call': [
    ['available', 'is a real human available to chat about my bill?', 'customer_request'],
    ['lady or gentleman', 'Is there a lady or a gentleman I could speak to?', 'customer_request'],
    ['let someone reply', 'stop the scripts and let someone from your team reply', 'customer_request'],
    ['nobody real', 'is there really no one real on here', 'customer_request'],
    ['one, after a bot', "you're a bot aren't you. i want a real one", 'customer_request'],
    ['one, after a person', 'Are you a person? If not, can I have one?', 'customer_request'],
    ['one is an invoice', 'I need an actual VAT invoice for last month, can I have one?', null],
    ['asks whether one is needed', 'a bot told me to ask for a human, do i actually need one?', null],
    ['rang me', "I'd rather someone rang me about this, it's complicated", 'customer_request'],
    ['call from', 'I need a call from your team today', 'customer_request'],
  ],
  'a person told apart from a machine': [
    ['who else', "I won't go through this with an app. Who else is there?", 'customer_request'],
    ['non virtual', 'is there a non-virtual one I could chat to', 'customer_request'],
    ['an adult', 'is there an adult I can speak with', 'customer_request'],
    ['with a pulse', 'anybody with a pulse on this chat?', 'customer_request'],
    ['not software', 'could a colleague of yours who is not software pick this up', 'customer_request'],
    ['flesh and blood', "i'd rather deal with flesh and blood on this one", 'customer_request'],
    ['actual eyes', 'I want this bill looked at by actual eyes', 'customer_request'],
    ['through to people', 'how do I get through to the people who do refunds', 'customer_request'],
    ['there must be', "there's got to be a real operator somewhere in this company", 'customer_request'],
    ['get them to ring', 'get the accounts lot to ring me please', 'customer_request'],
    ['obliged if', 'I would be grateful if someone could telephone me tomorrow', 'customer_request'],
    ['eyes, not a person', 'my eyes hurt from reading this bill, what is the total', null],
    ['who else, on the plan', 'who else is on my family plan?', null],
    ['adults on the plan', 'is there an adult tariff for my son', null],
  ],
  'told as something that happened': [
    ['asked last year', 'In 2023 I asked for a manager and got a free upgrade. Am I due another one?', null],
    ['had to', 'my neighbour had to speak to a supervisor to get her meter fixed, I hope I do not need to', null],
    ['on TV', 'I saw on TV a man ask for the manager and get compensation. Anyway, my returns label please', null],
    ['asked now, after an old story', 'Last year I asked for a manager and it worked. I want a manager now.', 'customer_request'],
  ],
  'refusing a person (negation)': [
    ['do not caps', 'I do NOT want a human', null],
    ['no need', 'no need for an agent, just fix it', null],
    ["don't transfer", "don't transfer me", null],
    ['absolutely not', 'I absolutely do not need a supervisor', null],
    ['no need to transfer', "There's no need to transfer me, you're doing fine", null],
    ['please do not put through', "Please don't put me through to anyone, I can wait", null],
    ['never asked', 'I never asked to speak to a human', null],
    ['not asking', "I'm not asking for a manager, I just want my refund", null],
    ['anyone else', "I don't want anyone else, I want you to fix it", null],
    ['no human please', 'No human please, just help me', null],
    ['not interested', 'Not interested in speaking to a person', null],
    ['think not', "I don't think I need a human", null],
    ['question then no', 'Human? No, just fix it', null],
    ['rather not', "I'd rather not talk to a manager", null],
    // A "no" that answers, with its own subject after it, negates nothing.
    ['answering no, then the request', 'no, I still want the person', 'customer_request'],
    ['answering no, then a refusal', "no I don't want a person", null],
    ['no apostrophe', 'i dont want a human, just answer me', null],
    ['shouted refusal', 'I DO NOT WANT A HUMAN!!!', null],
    ['stop offering', 'stop trying to transfer me', null],
    ['not sure', "I'm not sure I need a manager yet", null],
    ['do not involve', "Don't get a manager involved", null],
    ['hope not', "I hope I don't have to talk to a supervisor", null],
  ],
  'reported speech': [
    ['airport agent', 'the agent at the airport said I should ask for a manager', null],
    ['friend told me', 'my friend told me to ask for a manager', null],
    ['is saying', 'my bf is saying i should ask to speak to ur manager but i think i misread it. is £35 the total?', null],
    [
      'what the bill says, then the customer again',
      'the bill says i owe forty two and i always pay by direct debit so i do not get it can you put me through to a real person',
      'customer_request',
    ],
    ['what a letter says, and a person in it', 'the letter says i can ask you to put me through to a manager', null],
    ['last time', 'last time a person told me it would be refunded', null],
    ['colleague said', 'My colleague said I should ask to speak to a supervisor', null],
    ['store woman', 'The woman at the store told me to get a manager involved', null],
    ['hung up', 'Last time I asked for a manager they hung up', null],
    ['passive told', 'I was told to ask for a supervisor', null],
    ['yesterday rep', 'The representative I spoke with yesterday was rude', null],
    ['when I called', 'When I called last week the agent said my refund was approved', null],
    ['spoke earlier', 'I spoke to a human earlier and they were useless', null],
    ['quoted', 'The email said "speak to a manager for details", what does that mean?', null],
    ['procedure question', 'Do I have to talk to a manager for that?', null],
    ['husband asked', 'My husband asked for a manager last time and nothing happened', null],
  ],
  'people mentioned in passing': [
    ['husband booked', 'my husband booked this', null],
    ['human resources', 'the human resources department called me', null],
    ['wife billing', 'My wife handles the billing', null],
    ['travel agent', 'My travel agent booked this trip', null],
    ['seller lied', 'The person who sold me this lied', null],
    ['manager aware', 'Is the manager aware of this?', null],
    ['works in HR', 'I work in human resources', null],
    ['not a robot', "I'm a real person, not a bot", null],
    ['hotel manager', 'The manager at the hotel was very nice', null],
    ['gate agent', 'can the agent at the gate rebook me?', null],
    ['approval', "I need the manager's approval code from my receipt", null],
    ['human error', 'This looks like human error on your side', null],
    ['someone help', 'Can someone help me?', null],
    ['colleague named Sue', 'Sue booked the flight for me', null],
    ['the agent is the assistant', 'I want the agent to stop repeating itself', null],
    ['people in general', 'I want people to know how bad this is', null],
  ],
  'regulated topics': [
    ['formal complaint', 'I want to file a formal complaint', 'policy_topic'],
    ['official complaint', 'I need to file an official complaint about your service', 'policy_topic'],
    ['lodge', 'I want to lodge a complaint', 'policy_topic'],
    ['this is formal', 'This is a formal complaint', 'policy_topic'],
    ['want to complain', 'I want to complain about the way I was treated', 'policy_topic'],
    ['ombudsman', "I'm taking this to the ombudsman", 'policy_topic'],
    ['BBB', "I'm reporting you to the Better Business Bureau", 'policy_topic'],
    ['father passed', 'my father passed away last week', 'policy_topic'],
    ['mum died', 'My mum died last month and I need to close her account', 'policy_topic'],
    ['lost husband', 'I lost my husband in March', 'policy_topic'],
    ['death of', 'Following the death of my father, I need to cancel his subscription', 'policy_topic'],
    ['late wife', "I'm contacting you on behalf of my late wife", 'policy_topic'],
    ['deceased', 'The account holder is deceased', 'policy_topic'],
    ['court', "I'll see you in court", 'policy_topic'],
    ['my lawyer', 'my lawyer will be in touch', 'policy_topic'],
    ['legal action', "I'll be taking legal action", 'policy_topic'],
    ['sue', "I'm going to sue you", 'policy_topic'],
    ['solicitor', "You'll be hearing from my solicitor", 'policy_topic'],
    ['attorney', "I'm speaking with my attorney tomorrow", 'policy_topic'],
    ['not complaining', "I'm not going to file a complaint, I just want it fixed", null],
    ['no lawyer', "I don't need a lawyer for this, just refund me", null],
    ['not suing', "I'm not going to sue anyone, relax", null],
    ['phone died', 'my phone died while I was paying', null],
    ['son passed test', 'my son passed his driving test', null],
    ['lost card', 'I lost my card yesterday', null],
    ['food court', 'I paid at the food court', null],
  ],
  safety: [
    ['kill myself', 'I want to kill myself', 'safety'],
    ['not live', "I don't want to live anymore", 'safety'],
    ['end my life', "I'm going to end my life", 'safety'],
    ['hurt myself', 'I want to hurt myself', 'safety'],
    ['suicidal', 'honestly I feel suicidal', 'safety'],
    ['threatening', 'my husband is threatening to hurt me', 'safety'],
    ['break in', "Someone is trying to break in, I'm scared", 'safety'],
    ['gas leak', "There's a gas leak in my kitchen", 'safety'],
    ['not safe', "I'm not safe at home", 'safety'],
    ['heart attack', "he's having a heart attack", 'safety'],
    ['cannot breathe', "I can't breathe", 'safety'],
    ['unconscious', 'My son is unconscious', 'safety'],
    ['seizure', 'My daughter is having a seizure', 'safety'],
    ['ambulance', 'please call an ambulance', 'safety'],
    ['hyperbole heart', 'I nearly had a heart attack when I saw the bill', null],
    ['killing me', 'This wait is killing me', null],
    ['dying to know', "I'm dying to know when it ships", null],
    ['battery died', 'My laptop battery died', null],
    ['threat reported', "He said he'd kill me", 'safety'],
    ['pills', 'I took too many pills', 'safety'],
    ['collapsed', "my wife collapsed and isn't breathing", 'safety'],
    ['fees hyperbole', "you're going to kill me with these fees", null],
    ['coffee', "I'd kill for a coffee", null],
    ['business collapsed', 'my business collapsed last year', null],
    ['feels safe', 'I feel safe now, thanks', null],
    // A reserved topic's words not meant as one.
    ['a joke taken back', "I'd like to register a complaint... just kidding, the new app is great", null],
    ['a trade', "I'm a funeral director and need a business plan for four phones", null],
    [
      'a trade telling of a death',
      "I'm a funeral director acting for the family of the late Mr Shaw; please close his account",
      'policy_topic',
    ],
    ['an idiom', 'my dad died laughing at your advert, can he get that deal?', null],
    ['no joke', 'Are you kidding me? My lawyer will hear about this', 'policy_topic'],
    // A complaint made without the word.
    ['formally', 'I want this raised formally and a reference number.', 'policy_topic'],
    ['regulator by name', "I'm going to report you to Ofgem over this bill", 'policy_topic'],
    ['next stage', "Your first answer didn't help, I'd like to go to the next stage of your procedure", 'policy_topic'],
    ['on record', 'put it on record that the engineer never came', 'policy_topic'],
    ['investigated in writing', 'I want this investigated and a written outcome', 'policy_topic'],
    ['the official app is no complaint', 'is the official app the best way to pay my bill?', null],
    ['a formal letter is no complaint', 'I got a formal letter about the price rise, what does it mean?', null],
    // An emergency happening now, told in passing.
    ['a fire', "the router's on fire, actual flames, I'm getting the kids out", 'safety'],
    ['a flood', "the basement is flooding fast, water's up to my knees", 'safety'],
    ['something swallowed', 'my toddler ate one of the dishwasher tablets and is being sick', 'safety'],
    ['a fall', "mum's fallen and she's not answering the phone", 'safety'],
    ['patience on fire is a figure', 'my patience is on fire right now, but thanks for fixing it', null],
    ['a signal shot to pieces', "the signal's been shot to pieces since the new flats went up", null],
    // Danger told as what is happening.
    ['outside', "my ex keeps texting and he's outside the flat right now", 'safety'],
    ['locked in', 'he locks me in when he goes out and he has taken my passport', 'safety'],
    ['someone in the house', 'i think someone is in my house, i heard glass break downstairs', 'safety'],
    ['an engineer in the house is no danger', 'someone is in my house to fix the boiler, can the engineer come after 2?', null],
    ['a contract that locks me in is no danger', 'this contract locks me in for two years, can I leave early?', null],
    // Figures of speech in the words of a crisis, and a crisis beside one.
    ['going to kill me when', 'my dad is going to kill me when he sees this roaming bill', null],
    ['held hostage', 'I feel held hostage by this contract, how long is left?', null],
    ['affairs before a move', "I'm putting my affairs in order before I move to France, close the line on the 30th", null],
    ['jump off a cliff for', "I'd jump off a cliff for unlimited data at a tenner", null],
    ['a suicidal phone', 'my phone has been suicidal lately, it shuts down at 30%', null],
    ['away for a stated while', "I'm away till monday so post the new SIM, I'll be gone for two weeks after that", null],
    ['gone for good is no trip', "I'll be gone for good soon, cancel it", 'safety'],
    ['what a documentary is about', "Just watched a documentary about a hostage situation and half of it wouldn't load", null],
    ['a scene in a film', 'the film I rented had a suicide scene and then the rental expired', null],
    ['a threat denied', 'my sister is a lawyer, she says these get reversed, I am not threatening anything', null],
    ['danger denied, danger told', "I'm not threatening you but my ex is outside the door and won't leave", 'safety'],
    ['a hazard told as over', 'we had a gas leak in the spring, all fixed now, but the engineer unplugged the router', null],
    ['a hazard now', 'there is a gas leak in the kitchen and the smell is getting worse', 'safety'],
    ['a hazard over, a person hurt', 'the fire next door is now put out but my neighbour collapsed on the stairs', 'safety'],
    ['a thing collapsed', 'the tower my daughter built in Minecraft collapsed when the wifi dropped', null],
    ['what a novel is about', "I'm reading a novel where the hero is trapped in a burning lift, and the e-reader froze", null],
    ['a story about oneself is no film', 'i wrote a story about how i want to die', 'safety'],
    ['an idiom beside a real sign', "my mum is going to kill me when she sees the bill. honestly I want to die, I can't go on", 'safety'],
    // Self-harm told in passing.
    ['a place and a time', "I've paid what I owe. I'm driving to the bridge tonight.", 'safety'],
    ['looked up how', 'i googled how many of my tablets it would take', 'safety'],
    ['whoever finds this', 'if someone finds this message, tell my brother I am sorry', 'safety'],
    ['finality', "don't bother with the renewal, I won't make it to christmas anyway", 'safety'],
    ['not exist', "i'd rather not exist than deal with this bill", 'safety'],
    ['the last bill to a provider is no farewell', "this is the last bill I'll ever pay you, I'm switching", null],
    // A legal threat without the usual words.
    ['money claim', "I'm issuing a money claim online for the £120 you took.", 'policy_topic'],
    ['injunction', "Cut my line again and I'll get an injunction.", 'policy_topic'],
    ['the judge', "We'll let the judge decide who's right.", 'policy_topic'],
    ['a lawyer on an errand', 'my lawyer wants a copy of the contract for my house sale, can you post it?', null],
    ['a case against someone else', 'I need itemised calls for my tribunal case against my employer', null],
    ['a power of attorney', 'I have lasting power of attorney for my dad now, can I manage his bills?', null],
    [
      'a lawyer who writes to the company',
      'my solicitor asked me to let you know all further correspondence is to go through his office',
      'policy_topic',
    ],
    [
      'an errand that claims from the company',
      "my lawyer needs the bills because we're claiming compensation from you for the outage",
      'policy_topic',
    ],
    ['an errand and a threat', 'my solicitor wants a copy of the contract. see you in court', 'policy_topic'],
    ['a lawyer in the family', 'my solicitor wife needs the wifi password reset, she works from home', null],
    ['law as study', 'revising for my law exams, can I get more data this month?', null],
    ['a witness', "I'm a witness at a court case next week, will my roaming work in Belfast?", null],
    ['a lawyer drafting the claim', 'my lawyer friend is drafting the claim form tonight', 'policy_topic'],
    ['a lawyer told of as a trade', 'a friend of mine, who is a solicitor, says you cannot charge this', null],
    ['a school project', 'what is your complaints process? asking for my school project on customer service', null],
    ['for someone else', "what's the ombudsman's number? my neighbour asked me to find it, nothing to do with you", null],
    ['a threat taken back', "I was going to take you to court over the wifi lol but it's working now", null],
    ['an insurance claim is no threat', 'I filed a claim with my phone insurance, what is my IMEI?', null],
    ['an expense claim is no threat', 'can I get a VAT receipt for my expense claim?', null],
    // A death told the way people tell it.
    ['not with us', "my nan isn't with us anymore and her landline is still billed", 'policy_topic'],
    ['lost the fight', 'She lost her fight with cancer in May. Can I keep her number?', 'policy_topic'],
    ['gone', "My grandad's gone. He had a broadband contract with you.", 'policy_topic'],
    ['ashes', "we scattered his ashes on Sunday and I'm closing his accounts", 'policy_topic'],
    ['lost him to', 'we lost him to a stroke last month, the phone is in his name', 'policy_topic'],
    ['gone pale is no death', "my dad's gone very pale and he says his chest hurts", 'safety'],
    ['gone to Spain is no death', "my husband's gone to Spain for a month, can I pause his line?", null],
    ['lost her phone is no death', 'my daughter lost her phone on the bus, block the SIM', null],
  ],
  'crisis told in new words': [
    ['slang', 'thinking i might off myself this weekend, so cancel the direct debit', 'safety'],
    ['not worth it', 'lifes not worth it anymore, just close the account', 'safety'],
    ['ending together', 'close the account on the 1st, I want it all to end then, the account and me', 'safety'],
    ['never better', 'nothing is ever going to get better for me. anyway whats my balance', 'safety'],
    ['never better, until', 'nothing is ever going to get better until you fix the line', null],
    ['a last message', 'can you top up my phone, I need to send one last text to my sister', 'safety'],
    ['alive next month', "no point sorting the bill, I won't be alive next month", 'safety'],
    ['before I do it', 'I just needed to tell someone before i do it', 'safety'],
    ['did not, will', 'i didnt go through with it last night but i will tonight', 'safety'],
    ['a place and a day', "set the contract to end friday, i'm going up to the cliffs on saturday", 'safety'],
    ['abuse, someone named', 'my carer keeps pinching me when nobody is around', 'safety'],
    ['a threat to staff', "I've got petrol and I'll be at your shop by noon", 'safety'],
    ['outside an agent', "i'm sat outside his house right now, tell your agent that", 'safety'],
    ['a fit that goes on', "my son has been fitting for ten minutes and it won't stop", 'safety'],
    ['blood sugar', "her blood sugar has crashed and she can't swallow", 'safety'],
    ['trapped and rising', "we're trapped in the basement and the water is rising", 'safety'],
    ['told to evacuate', "we've been told to evacuate and the car won't start", 'safety'],
    ['a stalker who knows', 'he turned up at my new work again, he knows where i live', 'safety'],
    ['i mean die', 'nothing works. i want to disappear. i mean die', 'safety'],
    ['who finds me', "add my brother as the contact, he'll be the one who finds me", 'safety'],
    ['pills and drink', 'got my tablets and a bottle of vodka, just want the account settled first', 'safety'],
    ['glass breaking', 'the wifi matters because glass is breaking downstairs and he is shouting', 'safety'],
    ['at my window', "he's at my window right now and I have an order against him", 'safety'],
    ['the next person', "I'm going to stab the next person who tells me to wait", 'safety'],
    ['sextortion', "they're demanding money or they'll publish my photos by tomorrow", 'safety'],
    ['a fall, cold', "my husband has fallen and he's cold and not speaking", 'safety'],
    ['a child in a hot car', 'my son locked himself in the car and it is 30 degrees, he is crying', 'safety'],
    ['deep water', "it's a foot deep now and coming in through the walls", 'safety'],
    ['a window that breaks down', 'the window on my bill breaks down the charges, can you explain it', null],
    ['a lift that works', 'the lift in our block is stuck on floor 3 again, who do I call about the line in it', null],
    ['a cliff walk', 'we walked up to the cliffs on saturday and the signal was awful', null],
  ],
  'topics told without their usual words': [
    ['complaint opened', "then I'd like a complaint opened about the missed engineer visit", 'policy_topic'],
    ['noted as one', 'fine, but note it as a complaint too', 'policy_topic'],
    ['notice of complaint', 'please treat this email as notice of complaint', 'policy_topic'],
    ['to the regulator', 'this is going in my complaint to the telecoms regulator', 'policy_topic'],
    ['filing with', "I'm filing with the FCC about these fees", 'policy_topic'],
    ['to complaints', 'can you escalate this to complaints please', 'policy_topic'],
    ['a complaint resolved', 'my complaint from last year was sorted, thanks. what is my balance', null],
    ['group action', "I've joined a group action over the price rises", 'policy_topic'],
    ['a judge', "I'll let a judge decide who is right", 'policy_topic'],
    ['issued', "I've issued a claim, you will be served next week", 'policy_topic'],
    ['an insurance claim', 'I lodged a claim with my phone insurance, they need the IMEI', null],
    ['lawyer writing', 'my sister is a solicitor and she is writing to you about the overcharge', 'policy_topic'],
    ['be with the lord', 'my nan went to be with the lord on sunday, can we stop her landline', 'policy_topic'],
    ['the late', 'I act for the estate of the late Mr Patel; please freeze the account', 'policy_topic'],
    ['passed over', "me dad's passed over, the phone's in his name", 'policy_topic'],
    ['did not make it', "my uncle had cancer and didn't make it. the account needs closing", 'policy_topic'],
    ['off to a funeral', "I'm off to a funeral in Cork on friday, is Ireland in my roaming?", null],
    ['a service streamed', 'the memorial service for my grandad is being streamed on saturday, can the broadband cope?', null],
    ['a pension', "I get a widow's pension, does that count for the social tariff?", null],
    ['own trade', "I'm a trainee solicitor, can my number move to my firm's account?", null],
    ['a witness, not against you', "I'm a witness in a court case (not against you!) and need my call records", null],
    ['a flatmate', 'my flatmate died last month and the broadband is in his name', 'policy_topic'],
    ['a heart attack weeks ago', "dad had a heart attack three weeks ago and didn't make it, mum wants the contract ended", 'policy_topic'],
    ['a heart attack now', 'my dad is having a heart attack, the line is dead', 'safety'],
    ['a phone that did not make it', "my phone didn't make it through the wash, can I get a new sim", null],
  ],
  'capitals and order numbers': [
    ['order wrong', 'ORDER #W123 IS WRONG', null],
    ['order missing', 'WHERE IS ORDER W123', null],
    ['ids in a sentence', 'My order W123 and invoice INV-88 are both for the SSN card', null],
    ['shouting ask', 'GET ME A MANAGER', 'customer_request'],
    ['caps refund twice', [c('I NEED MY REFUND FOR W123'), a('Let me check.'), c('I NEED MY REFUND FOR W123 NOW')], 'frustration_and_loop'],
  ],
  frustration: [
    ['ridiculous alone', 'This is ridiculous', null],
    ['unacceptable alone', 'This is absolutely unacceptable!!!', null],
    ['frustrated alone', "I'm so frustrated with this, where's my refund?", null],
    ['useless alone', 'you are useless', null],
    ['fed up', "I'm fed up, where's my refund?", null],
    [
      'told you twice',
      [c('I want a refund for order W123'), a('Could you give me the order number?'), c('I ALREADY TOLD YOU, I want a refund for W123!!')],
      'frustration_and_loop',
    ],
    [
      'where twice',
      [c('where is my refund'), a('It is being processed.'), c('where is my refund? this is ridiculous')],
      'frustration_and_loop',
    ],
    ['frustration first, no loop', [c('this is ridiculous, I want a refund'), a('Which order?'), c('order W123 please')], null],
    [
      'frustration before loop',
      [c('ugh this app is useless'), a('Sorry! How can I help?'), c('cancel my subscription'), a('Done?'), c('cancel my subscription')],
      null,
    ],
    ['frustration and one failure', [c('check order W123, this is taking forever!!'), fail(), a('One moment.')], null],
    ['not angry, restated', [c('where is my refund'), a('Processing.'), c("I'm not angry, I just want to know where my refund is")], null],
    ['angry, new topic', [c('what a joke, my parcel is late'), a('Sorry, checking.'), c('also how do I update my address?')], null],
    [
      'three restatements',
      [
        c('I want to cancel my subscription'),
        a('Can you confirm?'),
        c('cancel my subscription'),
        a('Are you sure?'),
        c('please cancel my subscription'),
      ],
      'loop_detected',
    ],
    ['two restatements', [c('I want to cancel my subscription'), a('Can you confirm?'), c('cancel my subscription')], null],
    [
      'three with capabilities',
      [c('I want my money back'), a('Checking'), c('refund please'), a('Checking again'), c('can you reimburse me or not')],
      'loop_detected',
      CAPS,
    ],
    [
      'different intents',
      [c('cancel my order'), a('ok'), c('what is the status of my order'), a('ok'), c('change my order address')],
      null,
    ],
    [
      'thanks does not restate',
      [c('I want a refund'), a('Done'), c('refund received, thanks!'), a('Anything else?'), c('thanks for the refund')],
      null,
    ],
    [
      'answers echo the question',
      [
        c('I need to change my flight'),
        a('What is your booking reference?'),
        c('flight ABC123 on May 5'),
        a('Which date would you like to change your flight to?'),
        c('change the flight to May 7'),
      ],
      null,
    ],
    [
      'choosing is not restating',
      [c('I want a refund'), a('Would you like a refund or store credit?'), c('refund'), a('Processing.'), c('refund, yes')],
      null,
    ],
    [
      'answers with ids',
      [c('my package never arrived'), a('What is the order number?'), c('W555'), a('And the postcode?'), c('SW1A 1AA')],
      null,
    ],
    [
      'asked three ways',
      [
        c('I want to return these shoes'),
        a('Returns are free.'),
        c('ok but how do I return the shoes'),
        a('Within 30 days.'),
        c('how do I actually return the shoes'),
      ],
      'loop_detected',
    ],
  ],
  'tool failures': [
    ['three in a row', [c('check my order'), fail(), fail(), fail()], 'tool_failures'],
    ['two in a row', [c('check my order'), fail(), fail()], null],
    ['success resets', [fail(), fail(), succeed(), fail(), fail()], null],
    ['streak after reset', [fail(), fail(), succeed(), fail(), fail(), fail()], 'tool_failures'],
    ['recovered at the end', [fail(), fail(), fail(), succeed()], null],
    ['turns do not reset', [fail(), c('hm?'), a('Retrying.'), fail(), fail()], 'tool_failures'],
    ['different tools', [fail('lookup_order'), fail('lookup_customer'), fail('lookup_invoice')], 'tool_failures'],
    ['limit five', [fail(), fail(), fail(), fail()], null, { toolFailureLimit: 5 }],
    ['limit two', [fail(), fail()], 'tool_failures', { toolFailureLimit: 2 }],
    ['transient unavailable', [fail('lookup_order', 'Service temporarily unavailable, try again later')], null],
  ],
  'value above the autonomous limit': [
    ['above', [c('refund me'), write(150)], 'value_threshold', LIMIT],
    ['equal', [write(100)], null, LIMIT],
    ['cent above', [write(100.01)], 'value_threshold', LIMIT],
    ['cent below', [write(99.99)], null, LIMIT],
    ['numeric string', [write('150.00')], 'value_threshold', LIMIT],
    ['currency string', [write('$1,250')], 'value_threshold', LIMIT],
    ['string equal', [write('100')], null, LIMIT],
    ['no limit set', [write(10000)], null],
    ['zero limit', [write(0.01)], 'value_threshold', { autonomousLimit: 0 }],
    ['zero at zero', [write(0)], null, { autonomousLimit: 0 }],
    ['read tool not counted', [write(500, 'quote_fee')], null, { autonomousLimit: 100, writeTools: ['issue_refund'] }],
    ['write tool counted', [write(500, 'issue_refund')], 'value_threshold', { autonomousLimit: 100, writeTools: ['issue_refund'] }],
    ['other argument', [write(200, 'issue_credit', 'value')], 'value_threshold', { autonomousLimit: 100, amountArgument: 'value' }],
    ['not a number', [write('all of it')], null, LIMIT],
  ],
  'no capability': [
    ['disabled tool', [c('refund me'), tool('issue_refund', true)], 'no_capability', { disabledTools: ['issue_refund'] }],
    ['tool says disabled', [fail('issue_refund', 'Error: this tool is disabled for this merchant')], 'no_capability'],
    ['not supported', [fail('change_plan', 'Operation not supported for this account type')], 'no_capability'],
    ['unknown tool', [fail('book_hotel', 'unknown tool: book_hotel')], 'no_capability'],
    ['ok output is data', [tool('lookup_customer', true, '{"account":"disabled"}')], null],
    ['out of scope', 'I want to book a hotel room in Paris', 'no_capability', CAPS],
    ['out of scope question', 'Can you upgrade my plan to premium?', 'no_capability', CAPS],
    ['problem out of scope', 'my internet is not working', 'no_capability', CAPS],
    ['in scope email', 'Can you help me change my e-mail address?', null, CAPS],
    ['in scope refund', 'I need a refund for the duplicate charge', null, CAPS],
    ['in scope tracking', 'Could you track my parcel for me?', null, CAPS],
    ['no content', 'please hurry', null, CAPS],
    ['closing', "thanks, that's all", null, CAPS],
    ['unknown scope', 'I want to book a hotel room in Paris', null],
    ['drift halfway', [c('I need a refund for W123'), a('Done.'), c('also can you book me a taxi to the airport?')], 'no_capability', CAPS],
    [
      'refusing a person asks for nothing',
      [
        c('I was charged twice'),
        a('I can refund that, or would you like me to transfer you to a specialist?'),
        c("No, please don't transfer me, just refund it"),
      ],
      null,
      CAPS,
    ],
  ],
  'accepting or declining an offer': [
    ['yes please', [a('Would you like me to transfer you to a specialist?'), c('yes please')], 'customer_request'],
    ['go ahead', [a('I can connect you with a colleague if you prefer. Shall I?'), c('Go ahead')], 'customer_request'],
    ['no thanks', [a('Would you like me to transfer you to a specialist?'), c("no thanks, I'll wait")], null],
    ['ok but', [a('Do you want me to transfer you?'), c('ok but first check my order')], null],
    ['not an offer', [a('Is there anything else I can help with?'), c('yes please')], null],
    [
      'declined cancels request',
      [c('can I talk to a human?'), a('Sure, or I can fix it right now.'), c('never mind, no need for a human, just fix it')],
      null,
    ],
    ['asked again after refusing', [c("don't transfer me"), a('Okay.'), c('actually, get me a manager')], 'customer_request'],
  ],
  'after the wait is stated': [
    [
      'wait refused, help taken',
      [
        c('real person please'),
        a('Of course. The wait is about a 50-minute one right now. Shall I try first?'),
        c("I don't have 50 minutes, you try"),
      ],
      null,
    ],
    ['no way', [c('get me a human'), a('Sure, it is around 2 hours today.'), c('2 hours? no way. what is my balance then')], null],
    [
      'resigned, goes on',
      [c('operator'), a('The queue is about 30 minutes. I can look at it now if you like.'), c('ugh fine. my bill is too high')],
      null,
    ],
    [
      'still wanted beside thanks',
      [c('a person please'), a('The wait is around an hour; I can help now.'), c("no thanks, I'd still like the person")],
      'customer_request',
    ],
    [
      'keeps the place',
      [c('human'), a('About 40 minutes. Want me to have a go meanwhile?'), c('you can try but keep my place in the queue')],
      'customer_request',
    ],
    [
      'accepts the transfer offered',
      [c('transfer me'), a('I can transfer you. The wait is 15 minutes. Shall I go ahead?'), c('yes go ahead')],
      'customer_request',
    ],
    [
      "a yes to the last question, about the agent's own help",
      [
        c('can I talk to a staff member'),
        a("I can connect you, it's about 20 minutes. SIM faults I can usually fix here. Shall I try?"),
        c('yes please try'),
      ],
      null,
    ],
    [
      'a yes to an offer of a person',
      [c('my bill is wrong'), a('I can check it, or would you like me to transfer you to billing?'), c('yes please')],
      'customer_request',
    ],
    [
      'the need has gone',
      [c('someone from billing'), a('Billing is about 25 minutes away.'), c("don't worry about the person, I've sorted it")],
      null,
    ],
  ],
  'a command told again inside longer messages': [
    [
      'thanks, sarcastic',
      [
        c('Oh great, another month, another paper bill fee. Remove the paper bill fee.'),
        a('Paper bills are posted on the 2nd.'),
        c('Wow, so helpful. I switched to email a year ago. Take off the paper bill fee.'),
        a('Switching to paperless is easy in the app!'),
        c('I DID switch. Remove the paper bill fee.'),
      ],
      'frustration_and_loop',
    ],
    ['thanks, meant', [c('Great, thanks, remove the paper bill fee'), a('Done, the fee is removed.'), c('thanks, that is all')], null],
  ],
  'a person asked for again, in few words': [
    [
      'the human now',
      [
        c('human please'),
        a('Sure, about a 15 minute wait. Can I help meanwhile?'),
        c('ok, what is my balance'),
        a('Your balance is 12.40.'),
        c('thanks. now the human please'),
      ],
      'customer_request',
    ],
    [
      'get me one',
      [
        c('can I have a supervisor'),
        a('The wait is 30 minutes. Shall I try first?'),
        c('go on then'),
        a('I cannot see that discount.'),
        c('that is why I wanted a supervisor. please get me one'),
      ],
      'customer_request',
    ],
    [
      'book it',
      [c('I want a manager'), a('A manager can call you back tomorrow. Shall I book that, or can I help now?'), c('book it')],
      'customer_request',
    ],
    ['waiting', [c('agent'), a("I'll connect you. Current wait: about 10 minutes."), c('ok waiting')], 'customer_request'],
    [
      'time to wait',
      [c('a person please'), a('The wait is about 30 minutes.'), c('that is fine, I have time. connect please')],
      'customer_request',
    ],
    [
      'book, not a person',
      [c('I want a manager'), a('I can book an engineer for Thursday instead. Shall I book that?'), c('no, forget the manager. book it')],
      null,
    ],
    [
      'connect, not a person',
      [
        c('a human please'),
        a('The wait is 20 minutes, or I can help now.'),
        c('you try'),
        a('Try restarting the router.'),
        c('it works now, it will connect me to the wifi. thanks'),
      ],
      null,
    ],
  ],
  'an agent reply that answers nothing': [
    [
      'paraphrased three times past off-topic replies',
      [
        c('Is there a charge for leaving early?'),
        a('We would hate to lose you!'),
        c('How much would it cost to end my contract right now?'),
        a('Have you seen our loyalty deals?'),
        c('What is the early termination fee on my account?'),
      ],
      'loop_detected',
    ],
    [
      // No word in common, and the agent's replies move nothing: each turn goes on with the one before.
      'said three ways with no word in common, past replies that do nothing',
      [
        c('my landlord wants a letter proving I pay you'),
        a('Our broadband is rated five stars.'),
        c('I need something official on paper showing the account is mine'),
        a('You can manage your account in the app.'),
        c('is there a document you can post that confirms who the bill payer is'),
      ],
      'loop_detected',
    ],
    [
      'a new question marked as new, after a reply that did nothing',
      [
        c('my landlord wants a letter proving I pay you'),
        a('Our broadband is rated five stars.'),
        c('never mind that, when is my next bill due'),
        a('You can see your bills in the app.'),
        c('also how do I add my partner as a second contact'),
      ],
      null,
    ],
    [
      'the reply taken, and something else asked',
      [
        c('why did my bill go up'),
        a('The annual price rise started in April.'),
        c('fair enough. what plans are cheaper than mine'),
        a('Lite 10GB is the cheapest plan.'),
        c('ok, can you tell me the data allowance on it'),
      ],
      null,
    ],
    [
      // A reply without a verb names the thing asked for: each question was answered.
      'new questions answered in a word or two',
      [
        c('what tariff am I on'),
        a('Fibre 150.'),
        c('which add-on is the extra line on my bill'),
        a('The Spotify add-on.'),
        c('who is allowed to make changes to the account'),
        a('Only the account holder.'),
      ],
      null,
    ],
    [
      // An acknowledgement takes the request on: the next question is a new one.
      'new questions acknowledged',
      [c('what is my balance'), a('Noted.'), c('when is my bill due'), a('Understood.'), c('can I pay by card'), a('Got it.')],
      null,
    ],
    [
      'a greeting without a verb is no answer',
      [
        c('my landlord wants a letter proving I pay you'),
        a('Welcome to the network!'),
        c('I need something official on paper showing the account is mine'),
        a('Thanks for being with us since 2019.'),
        c('is there a document you can post that confirms who the bill payer is'),
      ],
      'loop_detected',
    ],
    [
      // Sympathy alone moves nothing: the same request a third time is a loop.
      'an apology that does nothing',
      [
        c('my refund has not arrived'),
        a("I'm sorry about the wait."),
        c('the refund for the returned router, it is not in my account'),
        a('I understand how frustrating that is.'),
        c('i just want to know where the money went'),
      ],
      'loop_detected',
    ],
    [
      'an apology with an action engages',
      [
        c('my refund has not arrived'),
        a("I'm sorry about the wait, let me check where it is."),
        c('the refund for the returned router, it is not in my account'),
        a("I understand. I've chased it with the bank today."),
        c('i just want to know where the money went'),
      ],
      null,
    ],
  ],
  'corrections of the agent, and answers in kind': [
    [
      'the customer says the agent missed it, twice',
      [
        c('When does my mobile contract finish?'),
        a('We have great SIM-only deals this month.'),
        c('Thanks, but I meant my own contract end date.'),
        a('You can upgrade in the app.'),
        c("I'm not asking about upgrades, I'm asking when my minimum term is over."),
      ],
      'loop_detected',
    ],
    [
      'like questions, each answered in kind',
      [
        c('is there a fee for paying by card?'),
        a('No, card payments are free.'),
        c('is there a fee for paying late?'),
        a('Yes, £6 after 10 days.'),
        c('is there a fee for a bounced direct debit?'),
        a('Yes, £8.'),
      ],
      null,
    ],
    [
      'follow-ups after answers that share few words with the question',
      [
        c('how much data have i used'),
        a('18GB of your 20GB this month.'),
        c('how much is extra data if I go over'),
        a("It's £2 per extra GB, or a 5GB bolt-on for £5."),
        c('can I use my data as a hotspot for my laptop?'),
        a('Yes, tethering is included on your plan.'),
      ],
      null,
    ],
    [
      'a question answered with nothing of its kind, asked again in other words',
      [
        c('how do I switch off voicemail?'),
        a('Voicemail keeps your messages safe.'),
        c('where do I go to stop voicemail on my phone'),
        a('Our plans include unlimited calls.'),
        c('how can I get voicemail turned off'),
      ],
      'loop_detected',
    ],
  ],
  'a call asked for': [
    ['a team to call', 'could you have the accounts team call me on my mobile', 'customer_request'],
    ['a bell', 'just get someone to give me a bell, typing is hopeless', 'customer_request'],
    ['a phone call by name', "I'd rather have a phone call with one of your advisors than do this by text", 'customer_request'],
    ['a bare callback', 'callback please', 'customer_request'],
    ['an option asked after', 'would a call back be possible? evenings suit me', 'customer_request'],
    ['the customer calls back', "I'll call back later when I have the bill", null],
    ['refused', "I'd rather not have a phone call, chat is fine", null],
    ['a call of their own', 'I have a phone call at 3 so can we be quick', null],
    ['told as past', 'you promised me a call back last week and nobody rang', null],
  ],
  'put off, or only asked about': [
    ['tentative', 'If you cannot explain this fee I might ask for a supervisor. What is the fee?', null],
    ['at any point', 'can I get a human at any point in this chat? good. what is my due date', null],
    ['for now', 'Can I talk to a person later on if I need to? For now I only want my balance.', null],
    ['what would happen', 'what would happen if I asked for a manager? just curious', null],
    ['worst case', "worst case I'll ask for an agent, but first: why did my bill go up", null],
    ['what it costs', 'Does it cost extra to speak to a person on the phone line? I just want my balance.', null],
    ['for next time', 'is it worth asking for a supervisor about a late fee? just so i know', null],
    ['not yet', 'can I talk to someone? not yet, first tell me my balance', null],
    ['a condition never met', 'in the event my payment bounces, would a human get in touch with me?', null],
    ['possible is polite, not hypothetical', 'Is it possible to speak to a human?', 'customer_request'],
    ['if it ends up so', 'if we end up needing a supervisor, should I have the contract number ready?', null],
    ['asked ahead for a later day', "we'll probably want to talk to someone when the lease is up, today it's only the due date", null],
    ['a condition not yet met', "I'll only want a person if this gets complicated. What's the upgrade fee?", null],
    ['for future reference', 'for future reference, how do I reach a real person on here?', null],
    ['may I, later, if', "can I get a person at the end if the numbers still don't add up? ok, the bill first", null],
    ['whether they will need one', "I don't know yet whether I'll need a real person. First, what's my balance?", null],
    ['the next time', 'Would it be quicker to ask for a human next time?', null],
    ['on a later day', 'If I ring tomorrow can I ask for a supervisor then? Today I only need the bill.', null],
    ['once something happens', 'Will I be able to talk to a specialist once the new meter is in?', null],
    ['a detail of that case', 'In case I need a callback next week, what number would you ring me from?', null],
    ['a condition the chat meets', 'are you a bot? if so I want a real person', 'customer_request'],
    ['a condition now met is still a request', "I'd like a human now since you can't fix it", 'customer_request'],
    ['polite if', 'can I talk to someone if you cannot fix it', 'customer_request'],
    ['imagined', 'imagine I wanted a manager, how long is the wait on sundays? just curious. my balance please', null],
    ['say I was', 'say I was unhappy later, could I speak to a person then? for now, the due date', null],
    ['counterfactual if', "if i wasnt on the bus i'd ring up and demand a human. anyway whats my balance", null],
    ['would it be weird', 'would it be weird to ask for a supervisor just to say thanks?', null],
    ['next time', "next time I'll ask for a person straight away, today just the bill please", null],
    ['would, but not now', "I would ask for a human but it's 3am, so just tell me the due date", null],
    ['would, but what for', "i'd call a manager but they never help anyway. whats my balance", null],
    ['would, but cannot', "I'd ask for a manager but there's no option for that on here", 'customer_request'],
    ['would like, but', 'I would like to speak to a person but quickly please', 'customer_request'],
  ],
  'the classifier, confident without a lead': [
    ['requesting', "I'm requesting a human representative.", 'customer_request'],
    ['saying what someone is', "I'm a genuine human, not a bot", null],
    ['anyone to help', 'Could anyone help me with this?', null],
  ],
  'case and punctuation': [
    ['upper', 'LET ME SPEAK TO A HUMAN', 'customer_request'],
    ['exclaimed', 'let me speak to a human!!!', 'customer_request'],
    ['title case question', 'Let Me Speak To A Human?', 'customer_request'],
    ['extra spaces', 'let  me   speak to a   human', 'customer_request'],
    ['ellipsis', 'let me speak to a human…', 'customer_request'],
    ['brackets', 'let me speak to a human (please)', 'customer_request'],
    ['texting', 'get me ur supervisor pls', 'customer_request'],
    ['curly apostrophe', 'I’d like to speak to a manager', 'customer_request'],
    ['curly negation', 'I don’t want a human', null],
    ['no punctuation run-on', 'hello i need to talk to a real person asap', 'customer_request'],
    ['complaint caps', 'I WANT TO FILE A FORMAL COMPLAINT', 'policy_topic'],
    ['safety lower', 'i want to end it all', 'safety'],
  ],
  precedence: [
    ['safety over request', 'I want to kill myself, get me a human', 'safety'],
    ['request over topic', 'get me a manager, I want to file a formal complaint', 'customer_request'],
    ['topic over value', [c('my lawyer says you owe me'), write(500)], 'policy_topic', LIMIT],
    ['value over capability', [write(500, 'issue_refund')], 'value_threshold', { autonomousLimit: 100, disabledTools: ['issue_refund'] }],
    ['capability over failures', [fail('x'), fail('x'), fail('issue_refund', 'refunds are disabled')], 'no_capability'],
    ['failures over loop', [c('refund W123'), fail(), c('refund W123'), fail(), c('refund W123'), fail()], 'tool_failures'],
    [
      'frustrated loop over loop',
      [c('refund W123'), a('?'), c('refund W123'), a('?'), c('refund W123, this is useless')],
      'frustration_and_loop',
    ],
    ['nothing at all', [c('hi, can you check order W123?'), succeed(), a('It ships tomorrow.'), c('great, thanks')], null],
  ],
};

const cases = Object.entries(table).flatMap(([group, rows]) =>
  rows.map(([label, messages, expected, policy]) => ({
    name: `${group}: ${label}`,
    items: typeof messages === 'string' ? [c(messages)] : messages,
    expected,
    policy: DeciderPolicySchema.parse(policy ?? {}),
  })),
);

describe('decideTranscript', () => {
  it('has at least 150 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
  });

  it.each(cases)('$name', ({ items, expected, policy }) => {
    const decision = decideTranscript(items, policy);
    expect(decision.reason).toBe(expected);
    expect(decision.handoff).toBe(expected !== null);
    if (expected === null) {
      expect(decision).toMatchObject({ target: null, evidence: null, signals: [] });
      return;
    }
    // Every hand-off names the signal and the text it fired on.
    expect(decision.evidence).toBeTruthy();
    expect(decision.signals.length).toBeGreaterThan(0);
    expect(decision.evidence).toBe(decision.signals[0]?.evidence);
    const texts = items.map((item) => (item.role === 'tool' ? `${item.name} ${item.output} ${JSON.stringify(item.arguments)}` : item.text));
    const source = texts[decision.signals[0]!.index]!;
    if (items[decision.signals[0]!.index]?.role === 'customer') expect(source).toContain(decision.evidence);
  });
});

describe('decideHandoff', () => {
  const at = { index: 0, offset: 0 };
  it('hands off to the queue the policy names for the reason, else the default queue', () => {
    const policy = DeciderPolicySchema.parse({ targets: { safety: 'queue_crisis' }, defaultTarget: 'queue_tier2' });
    expect(decideHandoff([{ kind: 'safety', topic: 'medical', evidence: 'chest pain', ...at }], policy)).toMatchObject({
      handoff: true,
      reason: 'safety',
      target: 'queue_crisis',
      evidence: 'chest pain',
    });
    expect(decideHandoff([{ kind: 'human_request', evidence: 'a human', ...at }], policy).target).toBe('queue_tier2');
  });

  it('decides from signals alone, as an LLM extractor would give them', () => {
    const signals: Signal[] = [
      { kind: 'intent', intent: 'refund', evidence: 'refund?', index: 0, offset: 0 },
      { kind: 'intent', intent: 'refund', evidence: 'REFUND', index: 2, offset: 0 },
      { kind: 'frustration', evidence: 'REFUND', index: 2, offset: 0 },
    ];
    expect(decideHandoff(signals).reason).toBe('frustration_and_loop');
    expect(decideHandoff(signals.slice(0, 2)).handoff).toBe(false);
    expect(decideHandoff([]).handoff).toBe(false);
  });

  it('lets a later refusal cancel a request, and a later request override a refusal', () => {
    const request = { kind: 'human_request' as const, evidence: 'a human', index: 0, offset: 0 };
    const refusal = { kind: 'human_declined' as const, evidence: 'no human', index: 0, offset: 10 };
    expect(decideHandoff([request, refusal]).handoff).toBe(false);
    expect(decideHandoff([refusal, { ...request, offset: 20 }]).reason).toBe('customer_request');
  });

  it('orders every decider reason exactly once', () => {
    expect([...HARD_TRIGGERS, ...SOFT_TRIGGERS].sort()).toEqual([...DECIDER_REASONS].sort());
  });

  it('has a fixed safety response that points to emergency services', () => {
    expect(SAFETY_RESPONSE).toMatch(/emergency/);
  });
});

describe('DeciderPolicySchema', () => {
  it('parses {} with defaults, snake_case keys, and refuses unknown fields', () => {
    expect(DeciderPolicySchema.parse({})).toMatchObject({
      autonomousLimit: null,
      amountArgument: 'amount',
      toolFailureLimit: 3,
      loopLimit: 3,
    });
    expect(DeciderPolicySchema.parse({ autonomous_limit: 50, tool_failure_limit: 2 })).toMatchObject({
      autonomousLimit: 50,
      toolFailureLimit: 2,
    });
    expect(DeciderPolicySchema.safeParse({ autonomusLimit: 50 }).success).toBe(false);
    expect(DeciderPolicySchema.safeParse({ targets: { not_a_reason: 'q' } }).success).toBe(false);
  });
});

describe('reserved topics go to the team for the topic', () => {
  const policy = DeciderPolicySchema.parse({
    targets: { policy_topic: 'queue_topics', customer_request: 'queue_billing' },
    topicTargets: { complaint: 'queue_complaints', bereavement: 'queue_bereavement', legal: 'queue_legal' },
  });
  it.each([
    ['I want to file a formal complaint', 'queue_complaints'],
    ['My mum died last month and I need to close her account', 'queue_bereavement'],
    ["I'm going to sue you", 'queue_legal'],
  ])('%s → %s', (text, target) => {
    const decision = decideTranscript([{ role: 'customer', text }], policy);
    expect(decision).toMatchObject({ handoff: true, reason: 'policy_topic', target });
  });

  it('falls back to the reason’s target, then the default, for a topic with no team', () => {
    const partial = DeciderPolicySchema.parse({ targets: { policy_topic: 'queue_topics' }, topicTargets: { legal: 'queue_legal' } });
    expect(decideTranscript([{ role: 'customer', text: 'I want to file a formal complaint' }], partial).target).toBe('queue_topics');
    expect(decideTranscript([{ role: 'customer', text: 'I want to file a formal complaint' }], DeciderPolicySchema.parse({})).target).toBe(
      'queue_general',
    );
  });
});

describe('requests and topics told in longer shapes', () => {
  it.each([
    ['May I talk with a member of the team?', 'customer_request'],
    ['Is it possible for someone from your billing department to check this?', 'customer_request'],
    ['Any chance for a supervisor to look at my case?', 'customer_request'],
    ['I would be happier if a staff member dealt with it', 'customer_request'],
    ["I'd rather a specialist took over from here", 'customer_request'],
    ['My wife Ana, who held the account, died in June.', 'policy_topic'],
    ['Our son, the main account holder, has sadly died', 'policy_topic'],
    ['My phone, the old one, died yesterday.', null],
    ['It would be better if someone had told me earlier', null],
    ['Is it okay for me to change the email?', null],
    ['My grandmother, bless her, is doing fine, the card died though.', null],
  ] as const)('%s → %s', (text, reason) => {
    expect(decideTranscript([{ role: 'customer', text }]).reason).toBe(reason);
  });
});

describe('a death or a lawyer mentioned, not the matter itself', () => {
  it.each([
    ['My father died in the spring, so I am trimming costs: please cancel my own plan.', null],
    ['My mum passed away and I need to close her account', 'policy_topic'],
    ['My uncle died last year; I also want to close his account and cancel my own subscription', 'policy_topic'],
    ['A friend of mine, who is a lawyer, said these charges usually get reversed.', null],
    ['My brother works as an attorney and suggested I ask about the fee.', null],
    ['I will be asking my lawyer about this charge.', 'policy_topic'],
    ['My solicitor is copied on this conversation.', 'policy_topic'],
  ] as const)('%s → %s', (text, reason) => {
    expect(decideTranscript([{ role: 'customer', text }]).reason).toBe(reason);
  });
});

describe('a hedged yes restates no request', () => {
  it('does not count "I think so, yes. Please go ahead." as the opening request said again', () => {
    const items: TranscriptItem[] = [
      { role: 'customer', text: "Sorry, I don't really know how this works. I think I want to cancel my internet plan." },
      { role: 'agent', text: 'I will cancel your plan. Shall I go ahead?' },
      { role: 'customer', text: "I think so, yes. Please go ahead. Sorry if I'm not explaining it well." },
      { role: 'agent', text: 'I need a clear yes or no.' },
      { role: 'customer', text: 'I think so, yes. Please go ahead.' },
    ];
    expect(decideTranscript(items).handoff).toBe(false);
  });
});
