import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DECIDER_POLICY, extractSignals } from '../src/core/index.js';
import { createEndpointLimiters } from '../src/llm/endpoint-limiter.js';
import { STYLES, type CustomerView, type Style } from '../src/lab/user.js';
import { readAgent } from '../src/lab/users/agent-reading.js';
import { createLlmUser, findStopToken, LlmUserError, loadUserGuidelines, type LlmUserOptions } from '../src/lab/users/llm-user.js';
import { renderScriptScenario, renderUserScenario } from '../src/lab/users/script-text.js';
import { createScriptedUser, type ScriptedTurnRecord } from '../src/lab/users/scripted-user.js';
import { DOC_AGENT_TURNS, DOC_SCRIPT, DOC_TASK_ID, renderStylesDoc } from '../src/lab/users/styles-doc.js';
import { factSpans, renderLine, STYLE_CARDS, styleCardPrompt, type StyleLine } from '../src/lab/users/styles.js';
import type { UserScript } from '../src/lab/variant.js';
import { startScriptedOpenAiServer, type ScriptedOpenAiServer, type ScriptedStep } from '../src/testing/scripted-openai-server.js';
import { loadBillingDomain } from '../src/domains/billing/index.js';
import { generateVariants, HANDOFF_VARIANT_SEED } from '../src/lab/variants/index.js';
import { tau2Domain } from './support/tau2-domains.js';
import { tau2DirForTests } from './support/tau2-dir.js';

// The simulated customers: the style renderer (facts never change), the scripted user's rules,
// and the LLM user against the scripted OpenAI-compatible server over real HTTP.

const AIRLINE: UserScript = {
  request: 'I want to cancel my reservation and get a refund. The trip was booked for May 15 but my plans changed.',
  facts: [
    { key: 'user_id', value: 'sophia_silva_7557', askedBy: ['user id'], volunteered: false },
    { key: 'reservation_id', value: 'ZFA04Y', askedBy: ['reservation'], volunteered: false },
    { key: 'name', value: 'Sophia Silva', askedBy: ['name'], volunteered: true },
  ],
  beats: [
    { turn: 2, kind: 'mention_person', text: 'My travel agent, Maria Lopez, told me this fare was refundable.' },
    { turn: 3, kind: 'ask_human', text: 'I would like to speak to a human agent about this, please.' },
  ],
  onTransfer: 'accept',
  confirms: true,
  maxTurns: 8,
};

const RETAIL: UserScript = {
  request: "I'd like to return the laptop from order #W2378156, which cost $1,250.50, and get the money back to my gift card.",
  facts: [
    { key: 'email', value: 'yusuf.rossi_9620@example.com', askedBy: ['email', 'e-mail'], volunteered: false },
    { key: 'zip', value: '78710', askedBy: ['zip', 'postal code'], volunteered: false },
    { key: 'name', value: 'Yusuf Rossi', askedBy: ['name'], volunteered: false },
  ],
  beats: [
    { turn: 2, kind: 'pressure', text: 'Please be quick, I only have a few minutes.' },
    { turn: 3, kind: 'reserved_topic', text: 'I also want to file a formal complaint about how long this has taken.' },
    { turn: 4, kind: 'refuse_transfer', text: "Whatever happens, I don't want to be transferred to anyone else." },
  ],
  onTransfer: 'refuse',
  confirms: false,
  maxTurns: 8,
};

const SCRIPTS = { billing: DOC_SCRIPT, airline: AIRLINE, retail: RETAIL };

/** A fixed agent side that asks for every kind of fact the scripts carry. */
const AGENT_TURNS = [
  'Hi! How can I help you today?',
  'Sure. May I have your name and your e-mail address or user id, please?',
  'Thanks. Could you also give me the reservation number or your zip code, and the verification code I just sent?',
  'I will cancel this and refund the amount. Shall I go ahead?',
  'Is there anything else I can help you with?',
  'Have a good day.',
];

type Message = CustomerView['messages'][number];

/** Plays `agentTurns` against a scripted user; the customer's texts, its log, the last view. */
async function converse(script: UserScript, style: Style, seed: number, agentTurns: readonly string[], transferredFrom?: number) {
  const user = createScriptedUser(script, { style, seed });
  const messages: Message[] = [];
  const texts: string[] = [];
  for (const [index, text] of agentTurns.entries()) {
    messages.push({ from: 'agent', text });
    const turn = index + 1;
    const reply = await user.next({ messages: [...messages], turn, transferred: transferredFrom !== undefined && turn >= transferredFrom });
    messages.push({ from: 'customer', text: reply.text });
    texts.push(reply.text);
    if (reply.stop) break;
  }
  return { texts, log: user.log, messages };
}

/** E-mail addresses and tokens with digits (ids, amounts, codes, dates' numbers). */
const numericFacts = (text: string) =>
  new Set(
    [...text.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|[$#]?[A-Za-z0-9_,.]*\d[A-Za-z0-9_,.]*/g)].map((m) =>
      m[0].replace(/[.,]+$/, ''),
    ),
  );

/** The label-relevant hand-off cues the decider's lexicon reads in a customer text. */
const cues = (text: string) =>
  extractSignals([{ role: 'customer', text }], DEFAULT_DECIDER_POLICY)
    .map((s) => (s.kind === 'policy_topic' ? `${s.kind}:${s.topic}` : s.kind))
    .filter((kind) => /^(human_request|human_declined|policy_topic|safety)/.test(kind))
    .sort();

const decisions = (log: readonly ScriptedTurnRecord[]) => log.map(({ turn, lines, beats, stop }) => ({ turn, lines, beats, stop }));

describe('styles: the facts never change', () => {
  it('every fact value and fact-like span of the neutral text is in all six renderings, turn by turn, with the same decisions', async () => {
    for (const [name, script] of Object.entries(SCRIPTS)) {
      for (const seed of [1, 2, 3, 42]) {
        const neutral = await converse(script, 'neutral', seed, AGENT_TURNS);
        const values = script.facts.map((f) => f.value);
        // The exchange reaches every fact, so the check covers them all.
        for (const value of values) expect(neutral.texts.join(' '), `${name}: ${value}`).toContain(value);
        for (const style of STYLES) {
          const styled = await converse(script, style, seed, AGENT_TURNS);
          expect(decisions(styled.log), `${name} ${style}`).toEqual(decisions(neutral.log));
          expect(styled.texts).toHaveLength(neutral.texts.length);
          neutral.texts.forEach((plain, i) => {
            const text = styled.texts[i] ?? '';
            for (const span of factSpans(plain, values)) expect(text, `${name} ${style} seed ${seed} turn ${i + 1}`).toContain(span);
            for (const value of values)
              expect(text.includes(value), `${name} ${style} turn ${i + 1}: ${value}`).toBe(plain.includes(value));
            expect(numericFacts(text), `${name} ${style} turn ${i + 1}: ${text}`).toEqual(numericFacts(plain));
          });
        }
      }
    }
  });

  it('keeps tricky facts verbatim in free text for every style and many seeds', () => {
    const lines: StyleLine[] = [
      {
        kind: 'request',
        text: 'I was charged $1,250.50 twice on 3 March 2025 for order #W2378156. The reservation ZFA04Y belongs to Sophia Silva.',
        facts: [{ label: 'order id', value: '#W2378156' }],
      },
      { kind: 'beat', text: 'My user id is noah_brown_6181 and the code is 015418, please hurry.', facts: [] },
      { kind: 'request', text: "I'm on the Starter plan and want to switch to the Ultra plan from 2025-03-01.", facts: [] },
      { kind: 'beat', text: 'Please send it to ava.li-77@mail.example.org, not to the old address.', facts: [] },
    ];
    for (const line of lines) {
      const spans = factSpans(
        line.text,
        line.facts.map((f) => f.value),
      );
      expect(spans.length).toBeGreaterThan(0);
      for (const style of STYLES) {
        for (let seed = 0; seed < 40; seed++) {
          const text = renderLine(style, line, { seed, opening: seed % 2 === 0 });
          for (const span of spans) expect(text, `${style} ${seed}`).toContain(span);
          expect(numericFacts(text), `${style} ${seed}: ${text}`).toEqual(numericFacts(line.text));
        }
      }
    }
    expect(factSpans(lines[0]!.text, ['#W2378156'])).toEqual(
      expect.arrayContaining(['#W2378156', '$1,250.50', '3 March 2025', 'ZFA04Y', 'Sophia Silva']),
    );
  });

  it('never adds or removes a hand-off cue: asking for a person, refusing one, reserved topics', () => {
    const beats = [
      ...AIRLINE.beats,
      ...RETAIL.beats,
      { kind: 'ask_human_indirect', text: 'Is there someone else who could look at this?' },
    ];
    const lines: StyleLine[] = [
      ...beats.map((b): StyleLine => ({ kind: 'beat', text: b.text, facts: [] })),
      { kind: 'request', text: AIRLINE.request, facts: [] },
      { kind: 'request', text: RETAIL.request, facts: [] },
    ];
    for (const line of lines) {
      const expected = cues(line.text);
      for (const style of STYLES) {
        for (let seed = 0; seed < 20; seed++) {
          const text = renderLine(style, line, { seed, opening: seed % 3 === 0 });
          expect(cues(text), `${style} ${seed}: ${text}`).toEqual(expected);
        }
      }
    }
    // The check has teeth: the beats do carry cues.
    expect(cues(AIRLINE.beats[1]!.text)).toContain('human_request');
    expect(cues(RETAIL.beats[1]!.text)).toContain('policy_topic:complaint');
  });

  it('is deterministic per seed, varies across seeds, and each style reads differently from neutral', async () => {
    const variants = new Set<string>();
    for (const style of STYLES) {
      const a = await converse(DOC_SCRIPT, style, 7, DOC_AGENT_TURNS);
      const b = await converse(DOC_SCRIPT, style, 7, DOC_AGENT_TURNS);
      expect(b.texts).toEqual(a.texts);
      for (let seed = 0; seed < 6; seed++)
        variants.add(`${style}:${(await converse(DOC_SCRIPT, style, seed, DOC_AGENT_TURNS)).texts.join('|')}`);
    }
    const neutral = (await converse(DOC_SCRIPT, 'neutral', 7, DOC_AGENT_TURNS)).texts;
    for (const style of STYLES.filter((s) => s !== 'neutral')) {
      const styled = (await converse(DOC_SCRIPT, style, 7, DOC_AGENT_TURNS)).texts;
      expect(styled.slice(0, -1), style).not.toEqual(neutral.slice(0, -1));
    }
    // Six styles, several seeds: more distinct transcripts than styles.
    expect(variants.size).toBeGreaterThan(STYLES.length);
  });

  it('holds for scripts from the variant generator: same decisions, facts and hand-off cues in every style', async () => {
    const domains = [loadBillingDomain(), await tau2Domain('airline'), await tau2Domain('retail')];
    const variants = generateVariants(domains, { seed: HANDOFF_VARIANT_SEED });
    // Every distinct request and beat the generator writes, in every style.
    const texts = new Map<string, StyleLine>();
    for (const { script } of variants) {
      const facts = (text: string) => script.facts.filter((f) => text.includes(f.value)).map((f) => ({ label: f.key, value: f.value }));
      texts.set(script.request, { kind: 'request', text: script.request, facts: facts(script.request) });
      for (const beat of script.beats) texts.set(beat.text, { kind: 'beat', text: beat.text, facts: facts(beat.text) });
    }
    expect(texts.size).toBeGreaterThan(100);
    for (const line of texts.values()) {
      const spans = factSpans(
        line.text,
        line.facts.map((f) => f.value),
      );
      for (const [k, style] of STYLES.entries()) {
        const text = renderLine(style, line, { seed: k, opening: line.kind === 'request' });
        for (const span of spans) expect(text, `${style}: ${text}`).toContain(span);
        expect(cues(text), `${style}: ${text}`).toEqual(cues(line.text));
      }
    }
    // Whole conversations for a spread of variants over the three domains and the kinds.
    const picked = variants.filter((_, i) => i % 29 === 0);
    expect(picked.length).toBeGreaterThan(15);
    expect(new Set(picked.map((v) => v.domain)).size).toBe(3);
    for (const variant of picked) {
      const script = variant.script;
      const asked = script.facts.filter((f) => !f.volunteered).map((f) => f.askedBy[0]);
      const turns = [
        'Hi! How can I help you today?',
        asked.length > 0 ? `Could you please give me your ${asked.join(' and your ')}?` : 'Let me look into that.',
        'I will make that change for you. Shall I go ahead?',
        'Is there anything else I can help you with?',
        'Is there anything else I can help you with?',
        'Is there anything else I can help you with?',
      ];
      const values = script.facts.map((f) => f.value);
      const neutral = await converse(script, 'neutral', 11, turns);
      for (const style of STYLES) {
        const styled = await converse(script, style, 11, turns);
        expect(decisions(styled.log), `${variant.id} ${style}`).toEqual(decisions(neutral.log));
        neutral.texts.forEach((plain, i) => {
          const text = styled.texts[i] ?? '';
          const where = `${variant.id} ${style} turn ${i + 1}: ${text}`;
          for (const span of factSpans(plain, values)) expect(text, where).toContain(span);
          expect(numericFacts(text), where).toEqual(numericFacts(plain));
          expect(cues(text), where).toEqual(cues(plain));
        });
      }
    }
  });

  it('has a card for every style, and the prompt keeps the facts rule', () => {
    for (const style of STYLES) {
      expect(STYLE_CARDS[style].style).toBe(style);
      expect(STYLE_CARDS[style].description.length).toBeGreaterThan(80);
      const prompt = styleCardPrompt(style);
      expect(prompt).toContain(STYLE_CARDS[style].title);
      expect(prompt).toMatch(/exactly as the scenario states it/);
    }
  });
});

describe('scripted user: the rules', () => {
  const view = (messages: Message[], turn: number, transferred = false): CustomerView => ({ messages, turn, transferred });
  const agent = (text: string): Message => ({ from: 'agent', text });
  const customer = (text: string): Message => ({ from: 'customer', text });

  it('opens with the request and the volunteered facts only', async () => {
    const user = createScriptedUser(AIRLINE, { style: 'neutral', seed: 1 });
    const first = await user.next(view([agent('Hi! How can I help you today?')], 1));
    expect(first.stop).toBeNull();
    expect(first.text).toContain(AIRLINE.request);
    expect(first.text).toContain('Sophia Silva');
    expect(first.text).not.toContain('sophia_silva_7557');
    expect(first.text).not.toContain('ZFA04Y');
  });

  it('reveals a fact only when asked, each time it is asked, and not when merely mentioned', async () => {
    const user = createScriptedUser(RETAIL, { style: 'neutral', seed: 1 });
    const m: Message[] = [agent('Hi! How can I help you today?')];
    m.push(customer((await user.next(view(m, 1))).text));
    m.push(agent('Let me check that for you, one moment.'));
    const waiting = await user.next(view(m, 2));
    for (const f of RETAIL.facts) expect(waiting.text).not.toContain(f.value);
    m.push(customer(waiting.text), agent('I will look your account up by e-mail address. Could you tell me your zip code?'));
    const zip = await user.next(view(m, 3));
    expect(zip.text).toContain('78710');
    expect(zip.text).not.toContain(RETAIL.facts[0]!.value);
    m.push(customer(zip.text), agent('Sorry, what was your zip code again? And your e-mail, please.'));
    const again = await user.next(view(m, 4));
    expect(again.text).toContain('78710');
    expect(again.text).toContain('yusuf.rossi_9620@example.com');
    expect(again.text).not.toContain('Yusuf Rossi');
  });

  it('asks for the more specific fact when one asking phrase contains another', () => {
    const facts = [
      { key: 'email', value: 'old@example.com', askedBy: ['e-mail'], volunteered: false },
      { key: 'new_email', value: 'new@example.com', askedBy: ['new e-mail'], volunteered: false },
    ];
    expect(readAgent('What new e-mail address would you like on your account?', facts).asked.map((f) => f.key)).toEqual(['new_email']);
    expect(readAgent('What is the e-mail address on your account?', facts).asked.map((f) => f.key)).toEqual(['email']);
  });

  it('reads details in parentheses as details, not as questions', () => {
    const code = [{ key: 'code', value: '256732', askedBy: ['code'], volunteered: false }];
    const reading = readAgent('I need your confirmation: I will verify you (customer id cus_1, code 256732). Shall I go ahead?', code);
    expect(reading).toMatchObject({ asked: [], confirm: true, unknown: false });
    expect(readAgent('I need your code (the six digits we texted you).', code).asked).toEqual(code);
  });

  it('says yes to a confirmation, or no when the script says so', async () => {
    for (const confirms of [true, false]) {
      const user = createScriptedUser({ ...DOC_SCRIPT, confirms }, { style: 'neutral', seed: 1 });
      const m: Message[] = [
        agent('Hi!'),
        customer('…'),
        agent('I will refund 49.00 to your card. Shall I go ahead? Please answer yes or no.'),
      ];
      const reply = await user.next(view(m, 2));
      expect(user.log.at(-1)?.lines).toEqual([confirms ? 'confirm_yes' : 'confirm_no']);
      expect(reply.text).toMatch(confirms ? /^Yes/ : /^No/);
    }
  });

  it('ends with ###STOP### when the agent closes, and thanks once before stopping after a report of work done', async () => {
    const closing = createScriptedUser(DOC_SCRIPT, { style: 'terse', seed: 1 });
    const m: Message[] = [agent('Hi!'), customer('…'), agent('Is there anything else I can help you with?')];
    expect(await closing.next(view(m, 2))).toEqual({ text: '###STOP###', stop: '###STOP###' });

    const reported = createScriptedUser(DOC_SCRIPT, { style: 'neutral', seed: 1 });
    const r: Message[] = [agent('Hi!'), customer('…'), agent('Done: I refunded 49.00 for duplicate charge ch_1.')];
    const thanks = await reported.next(view(r, 2));
    expect(thanks.stop).toBeNull();
    expect(reported.log.at(-1)?.lines).toEqual(['closing']);
    r.push(customer(thanks.text), agent("You're welcome."));
    expect((await reported.next(view(r, 3))).stop).toBe('###STOP###');
  });

  it('accepts a transfer: yes to an offer, ###TRANSFER### on an announcement or a system notice', async () => {
    const user = createScriptedUser(AIRLINE, { style: 'neutral', seed: 1 });
    const m: Message[] = [agent('Hi!'), customer('…'), agent('Would you like me to transfer you to a specialist?')];
    const offer = await user.next(view(m, 2));
    expect(offer.stop).toBeNull();
    expect(user.log.at(-1)?.lines).toContain('accept_transfer');
    m.push(customer(offer.text), agent("I'm passing you to a colleague in billing, who will take it from here."));
    expect((await user.next(view(m, 3))).stop).toBe('###TRANSFER###');

    const notified = createScriptedUser(AIRLINE, { style: 'neutral', seed: 1 });
    const n: Message[] = [agent('Hi!'), customer('…'), { from: 'system', text: 'The conversation is now with a person.' }];
    expect((await notified.next(view(n, 2, true))).stop).toBe('###TRANSFER###');
  });

  it('refuses a transfer when the script says so, and goes on', async () => {
    const user = createScriptedUser(RETAIL, { style: 'neutral', seed: 1 });
    const m: Message[] = [agent('Hi!'), customer('…'), agent('I am transferring you to a human agent now.')];
    const refusal = await user.next(view(m, 2, true));
    expect(refusal.stop).toBeNull();
    expect(user.log.at(-1)?.lines[0]).toBe('refuse_transfer');
    m.push(customer(refusal.text), agent('Understood. What is your zip code?'));
    const next = await user.next(view(m, 3, true));
    expect(next.stop).toBeNull();
    expect(next.text).toContain('78710');
  });

  it('does not read a transfer the agent says it cannot make, or a bank transfer, as one', () => {
    expect(readAgent("I'm sorry, I can't transfer this conversation from here, but I can help you myself.", []).transfer).toBeNull();
    expect(readAgent('The refund arrives by bank transfer within five days.', []).transfer).toBeNull();
    expect(readAgent('I will transfer you to our billing team.', []).transfer).toBe('announce');
    expect(readAgent('Shall I connect you with a supervisor?', []).transfer).toBe('offer');
  });

  it('says it does not have what it was not given, and the second such turn is ###OUT-OF-SCOPE###', async () => {
    const user = createScriptedUser(DOC_SCRIPT, { style: 'neutral', seed: 1 });
    const m: Message[] = [agent('Hi!'), customer('…'), agent('What is your date of birth?')];
    const first = await user.next(view(m, 2));
    expect(first.stop).toBeNull();
    expect(first.text).toMatch(/don't have/);
    m.push(customer(first.text), agent('Then could you tell me the last four digits of your card?'));
    expect(await user.next(view(m, 3))).toEqual({ text: '###OUT-OF-SCOPE###', stop: '###OUT-OF-SCOPE###' });
  });

  it('stops after maxTurns turns', async () => {
    const script = { ...DOC_SCRIPT, maxTurns: 3 };
    const turns = Array.from({ length: 6 }, () => 'Let me check that, one moment.');
    const { texts, log } = await converse(script, 'neutral', 1, turns);
    expect(texts).toHaveLength(4);
    expect(log.slice(0, 3).every((record) => record.stop === null)).toBe(true);
    expect(log[3]).toMatchObject({ turn: 4, stop: '###STOP###' });
  });

  it('says beats at their turn, or when the agent closes before, and records when each was scheduled', async () => {
    const { log } = await converse(AIRLINE, 'neutral', 1, ['Hi!', 'Let me look.', 'One moment please.', 'Anything else?']);
    expect(log[1]?.beats).toEqual([{ kind: 'mention_person', scheduled: 2 }]);
    expect(log[2]?.beats).toEqual([{ kind: 'ask_human', scheduled: 3 }]);
    const early = await converse(AIRLINE, 'neutral', 1, ['Hi!', 'Anything else I can do for you?', 'Anything else?', 'Anything else?']);
    expect(early.log.map((record) => record.beats)).toEqual([
      [],
      [{ kind: 'mention_person', scheduled: 2 }],
      [{ kind: 'ask_human', scheduled: 3 }],
      [],
    ]);
    expect(early.log.at(-1)?.stop).toBe('###STOP###');
  });

  it('restates the request when asked what it wants, and answers a repeated call for a turn the same way', async () => {
    const user = createScriptedUser(DOC_SCRIPT, { style: 'verbose', seed: 3 });
    const m: Message[] = [agent('Hello.'), customer('…'), agent('Sorry, how can I help you?')];
    const restated = await user.next(view(m, 2));
    expect(user.log.at(-1)?.lines).toEqual(['request']);
    expect(restated.text).toContain('49.00');
    expect(await user.next(view(m, 2))).toEqual(restated);
    expect(user.log).toHaveLength(1);
  });
});

describe('LLM user over the scripted OpenAI-compatible server', () => {
  const servers: ScriptedOpenAiServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  const serve = async (script: ScriptedStep[]) => {
    const server = await startScriptedOpenAiServer({ script });
    servers.push(server);
    return server;
  };
  const scenario = renderScriptScenario(DOC_SCRIPT, 'billing');
  const userFor = (server: ScriptedOpenAiServer, guidelines: string, extra: Partial<LlmUserOptions> = {}) => {
    const delays: number[] = [];
    const user = createLlmUser({
      baseURL: server.url,
      model: 'user-model',
      style: 'non_native',
      guidelines,
      scenario,
      instruction: 'Halfway through, ask whether a person could look at your account.',
      sleep: async (ms) => void delays.push(ms),
      random: () => 0,
      retryBaseMs: 50,
      limiters: createEndpointLimiters(),
      ...extra,
    });
    return { user, delays };
  };
  const conversation: CustomerView = {
    turn: 2,
    transferred: false,
    messages: [
      { from: 'agent', text: 'Hi! How can I help you today?' },
      { from: 'customer', text: 'I was charged two times.' },
      { from: 'agent', text: 'What is the e-mail address on your account?' },
    ],
  };

  it('sends the guidelines, scenario, instruction and style card, at temperature 0, with roles flipped', async () => {
    const guidelines = await loadUserGuidelines(tau2DirForTests());
    expect(guidelines).toBe(readFileSync(join(tau2DirForTests(), 'user_simulator', 'simulation_guidelines.md'), 'utf8'));
    const server = await serve([{ type: 'reply', content: 'My e-mail is lena.patel.1170@example.com.' }]);
    const { user } = userFor(server, guidelines);
    const reply = await user.next(conversation);
    expect(reply).toEqual({ text: 'My e-mail is lena.patel.1170@example.com.', stop: null });
    expect(user.kind).toBe('llm');
    const body = server.requests[0]?.body as { model: string; temperature: number; messages: { role: string; content: string }[] };
    expect(body.model).toBe('user-model');
    expect(body.temperature).toBe(0);
    const system = body.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content.startsWith(guidelines.trim())).toBe(true);
    expect(system.content).toContain(`<scenario>\n${scenario}\n</scenario>`);
    expect(system.content).toContain('Halfway through, ask whether a person could look at your account.');
    expect(system.content).toContain(styleCardPrompt('non_native'));
    expect(system.content).toContain('lena.patel.1170@example.com');
    expect(body.messages.slice(1)).toEqual([
      { role: 'user', content: 'Hi! How can I help you today?' },
      { role: 'assistant', content: 'I was charged two times.' },
      { role: 'user', content: 'What is the e-mail address on your account?' },
    ]);
  });

  it('ends on a stop token in the reply', async () => {
    const server = await serve([
      { type: 'reply', content: 'Thank you, that is all. ###STOP###' },
      { type: 'reply', content: '###TRANSFER###' },
    ]);
    const { user } = userFor(server, 'guidelines');
    expect(await user.next(conversation)).toEqual({ text: '###STOP###', stop: '###STOP###' });
    expect(await user.next(conversation)).toEqual({ text: '###TRANSFER###', stop: '###TRANSFER###' });
    expect(findStopToken('I cannot go on ###OUT-OF-SCOPE### ###STOP###')).toBe('###OUT-OF-SCOPE###');
    expect(findStopToken('no token here')).toBeNull();
  });

  it('retries a 500 with back-off and returns the reply that follows', async () => {
    const server = await serve([
      { type: 'error', status: 500 },
      { type: 'reply', content: 'Yes, please go ahead.' },
    ]);
    const { user, delays } = userFor(server, 'guidelines');
    expect(await user.next(conversation)).toEqual({ text: 'Yes, please go ahead.', stop: null });
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([25]);
    expect(user.usage()).toMatchObject({ requests: 2, retries: 1 });
  });

  it('surfaces a client error, and an empty reply, as errors without retrying', async () => {
    const server = await serve([
      { type: 'error', status: 400 },
      { type: 'reply', content: '' },
    ]);
    const { user } = userFor(server, 'guidelines');
    await expect(user.next(conversation)).rejects.toBeInstanceOf(LlmUserError);
    expect(server.requests).toHaveLength(1);
    await expect(user.next(conversation)).rejects.toThrow(/no text/);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after the retries run out', async () => {
    const server = await serve([
      { type: 'error', status: 503 },
      { type: 'error', status: 503 },
      { type: 'error', status: 503 },
    ]);
    const { user } = userFor(server, 'guidelines', { maxRetries: 2 });
    await expect(user.next(conversation)).rejects.toThrow(/after 3 attempts/);
    expect(server.requests).toHaveLength(3);
  });

  it('renders a task scenario as tau2-bench does', () => {
    const rendered = renderUserScenario({
      persona: null,
      instructions: {
        domain: 'billing',
        reason_for_call: 'Why.',
        known_info: 'Known.',
        unknown_info: null,
        task_instructions: 'Do.\nThen.',
      },
    });
    expect(rendered).toBe(
      'Instructions:\n\tDomain: billing\n\tReason for call:\n\t\tWhy.\n\tKnown info:\n\t\tKnown.\n\tTask instructions:\n\t\tDo.\n\t\tThen.',
    );
    expect(scenario).toContain('Your e-mail address is lena.patel.1170@example.com.');
    expect(scenario).toContain('say yes');
  });
});

describe('docs/styles.md', () => {
  it('is what scripts/render-styles.ts renders', async () => {
    const committed = readFileSync(join(import.meta.dirname, '..', 'docs', 'styles.md'), 'utf8');
    expect(committed).toBe(await renderStylesDoc());
  });

  it("shows a script true to its billing task's scenario", () => {
    const tasks = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'data', 'billing', 'tasks.json'), 'utf8')) as {
      id: string;
      user_scenario: { instructions: { reason_for_call: string; known_info: string } };
    }[];
    const task = tasks.find((t) => t.id === DOC_TASK_ID);
    expect(task).toBeDefined();
    for (const fact of DOC_SCRIPT.facts) expect(task?.user_scenario.instructions.known_info).toContain(fact.value);
    for (const span of factSpans(DOC_SCRIPT.request)) expect(task?.user_scenario.instructions.reason_for_call).toContain(span);
  });
});
