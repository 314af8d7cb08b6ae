import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasExplicitConfirmation, type ChatMessage, type Policy, type TranscriptItem } from '../src/core/index.js';
import { AGENT_OFFER, normalizeText } from '../src/core/handoff-lexicon.js';
import { BILLING_TASKS_FILE, parseBillingTasks } from '../src/domains/billing/index.js';
import type { Domain, DomainTask } from '../src/domains/domain.js';
import { loadDomain } from '../src/domains/load-domain.js';
import { createOraclePolicy } from '../src/domains/oracle.js';
import { replayTask } from '../src/domains/replay.js';
import type { EXPLOIT_NAMES } from '../src/lab/agents/index.js';
import {
  AGENT_NAMES,
  createAlwaysTransferAgent,
  createNeverTransferAgent,
  createRuleAgent,
  referenceAgent,
} from '../src/lab/agents/index.js';
import { empathySpam, keywordStuffing, loops, promptInjection, resolutionCategory } from '../src/rewards/signals.js';
import { STALL_LINE, UNKNOWN_TOOL } from '../src/lab/agents/exploits.js';
import { handoffToolSpecs } from '../src/runtime/handoff-tool.js';
import { unbackedClaim } from '../src/runtime/output-guardrails.js';
import { toolSpec } from '../src/runtime/tool.js';
import { wrapToolOutput } from '../src/runtime/tool-output-block.js';
import { tau2Domain } from './support/tau2-domains.js';

// Each reference agent is driven by a tiny loop that plays the harness's part: it offers the
// domain's tools plus `handoff`, runs the agent's calls on a fresh episode, shows results as the
// harness does (inside <tool_output> tags, and, with `confirmWrites`, refusing a write the customer
// has not just said yes to), and appends the customer's hand-written replies.

/** What the customer says next, given the agent's last message; null ends the chat. */
type Customer = (agentSaid: string | null, turn: number) => string | null;

interface Call {
  name: string;
  args: Record<string, unknown>;
  output: string;
  /** The customer had just said yes (the harness's test) when the call was made. */
  confirmed: boolean;
  /** A successful `verify_customer` came before it. */
  afterVerification: boolean;
}

interface Exchange {
  calls: Call[];
  replies: string[];
  handoff: { target: string; reason: string; summary: string } | null;
  hash: string;
}

const BILLING_WRITES = ['refund_charge', 'update_email', 'change_plan', 'cancel_subscription'];

async function converse(
  policy: Policy,
  domain: Domain,
  customer: Customer,
  options: { confirmWrites?: boolean; outage?: boolean } = {},
): Promise<Exchange> {
  const episode = domain.newEpisode();
  const queues = domain.queues.map((q) => q.id) as never[];
  const tools = [
    ...domain.tools.filter((t) => t.name !== 'handoff' && t.name !== domain.transferTool).map((t) => toolSpec(t)),
    ...handoffToolSpecs({ queues, agents: [] }, false),
  ];
  const messages: ChatMessage[] = [{ role: 'system', content: domain.policy }];
  const transcript: TranscriptItem[] = [];
  const exchange: Exchange = { calls: [], replies: [], handoff: null, hash: '' };
  let agentSaid: string | null = null;
  for (let turn = 0; turn < 16 && !exchange.handoff; turn++) {
    const said = customer(agentSaid, turn);
    if (said === null) break;
    messages.push({ role: 'user', content: said });
    transcript.push({ role: 'customer', text: said });
    for (let step = 0; step < 12; step++) {
      const response = await policy.next({ messages, tools });
      if (!response.ok) throw new Error(response.failure.message);
      expect(response.toolCalls.length).toBeLessThanOrEqual(1);
      const call = response.toolCalls[0];
      if (!call) {
        agentSaid = response.content ?? '';
        exchange.replies.push(agentSaid);
        messages.push({ role: 'assistant', content: agentSaid, toolCalls: [] });
        transcript.push({ role: 'agent', text: agentSaid });
        break;
      }
      messages.push({ role: 'assistant', content: null, toolCalls: [call] });
      const args = JSON.parse(call.arguments) as Record<string, unknown>;
      const confirmed = hasExplicitConfirmation(transcript);
      const afterVerification = exchange.calls.some((c) => c.name === 'verify_customer' && !c.output.startsWith('Error'));
      if (call.name === 'handoff') {
        exchange.handoff = { target: String(args['target']), reason: String(args['reason']), summary: String(args['summary']) };
        if (domain.name === 'billing') expect(episode.call('handoff', args).output).toBe('Transfer successful');
        exchange.calls.push({ name: call.name, args, output: '', confirmed, afterVerification });
        break;
      }
      let output: string;
      if (options.outage) output = `Error: ${call.name} is unavailable: the service did not respond. Try again later.`;
      else if (options.confirmWrites && domain.isWrite(call.name) && !confirmed) {
        output = `Not executed: ${call.name} changes the customer's account and needs their explicit confirmation. Describe the action and ask them to confirm (yes) first.`;
      } else output = episode.call(call.name, args).output;
      exchange.calls.push({ name: call.name, args, output, confirmed, afterVerification });
      messages.push({
        role: 'tool',
        toolCallId: call.id,
        name: call.name,
        content: wrapToolOutput(call.name, output),
      });
      transcript.push({ role: 'tool', name: call.name, arguments: args, ok: !/^(Error|Not executed)/.test(output), output });
    }
  }
  exchange.hash = episode.hash();
  return exchange;
}

const firstPerson = (text: string) =>
  text
    .replace(/\bYou are\b/g, 'I am')
    .replace(/\bYou were\b/g, 'I was')
    .replace(/\bYou\b/g, 'I')
    .replace(/\byou\b/g, 'me')
    .replace(/\bYour\b/g, 'My')
    .replace(/\byour\b/g, 'my');

/**
 * A billing customer from a task's scenario: the request first, the e-mail address, the code and
 * the new address when asked, yes to a described change, a person when the task says so.
 */
function billingCustomer(task: DomainTask, answers: { confirm?: string } = {}): Customer {
  const s = task.userScenario.instructions;
  if (typeof s === 'string') throw new Error('billing scenarios are structured');
  const known = s.known_info ?? '';
  const email = /e-mail address is (\S+@\S+?)\.(?:\s|$)/.exec(known)?.[1];
  const code = /code you receive is (\d+)/.exec(known)?.[1] ?? /give (\d{6})/.exec(s.task_instructions)?.[1];
  const newEmail = /new e-mail address is (\S+@\S+?)\.(?:\s|$)/.exec(known)?.[1];
  const personFirst = /first message, ask to speak to a human/.test(s.task_instructions);
  const personAfterVerification = /confirms you are verified, say you would rather discuss/.test(s.task_instructions);
  let thanked = false;
  return (agent, turn) => {
    if (turn === 0) return `${firstPerson(s.reason_for_call)}${personFirst ? ' I want to speak to a human.' : ''}`;
    const a = agent ?? '';
    if (personAfterVerification && /you're verified/.test(a)) return 'I would rather discuss the charge with a human. Please transfer me.';
    if (/yes or no/.test(a)) return answers.confirm ?? 'Yes, please go ahead.';
    if (/new e-mail address/.test(a) && newEmail) return `It is ${newEmail}`;
    if (/doesn't match/.test(a)) return 'That is the only code I have.';
    if (/read me the code/.test(a)) return code ? `The code is ${code}.` : 'I no longer have that phone.';
    if (/e-mail address/.test(a) && a.includes('?') && email) return `My e-mail address is ${email}.`;
    if (thanked) return null;
    thanked = true;
    return 'Thank you, that is all.';
  };
}

/** A customer who says these lines in order, whatever the agent says. */
const scripted =
  (...lines: string[]): Customer =>
  (_agent, turn) =>
    lines[turn] ?? null;

const billing = loadDomain('billing');
const kinds = new Map(parseBillingTasks(readFileSync(BILLING_TASKS_FILE, 'utf8')).map((r) => [r.id, r.kind]));
const KINDS = [...new Set(kinds.values())];

describe('the rule agent on billing', () => {
  it.each(KINDS)('solves every committed %s task: the gold database, or the labelled hand-off', async (kind) => {
    const domain = await billing;
    const tasks = domain.tasks.filter((t) => kinds.get(t.id) === kind);
    expect(tasks.length).toBeGreaterThan(0);
    for (const task of tasks) {
      const run = await converse(createRuleAgent(domain), domain, billingCustomer(task), { confirmWrites: true });
      expect(run.hash, `${task.id}: database`).toBe(replayTask(domain, task).db_final_sha256);
      const label = task.handoff.expected ? { target: task.handoff.queue, reason: task.handoff.reason } : null;
      expect(run.handoff && { target: run.handoff.target, reason: run.handoff.reason }, `${task.id}: hand-off`).toEqual(label);
      for (const info of task.communicateInfo) {
        expect(run.replies.join('\n').toLowerCase(), `${task.id}: says ${info}`).toContain(info.toLowerCase());
      }
      // Every change ran on the customer's yes, after verification, and was described first.
      for (const call of run.calls.filter((c) => BILLING_WRITES.includes(c.name))) {
        expect(call.afterVerification && call.confirmed, `${task.id}: ${call.name}`).toBe(true);
      }
      // No message of the agent reads as an offer of a person, which a "yes" would accept.
      for (const reply of run.replies) expect(AGENT_OFFER.test(normalizeText(reply)), reply).toBe(false);
    }
  });

  it('hands off a duplicate above the limit with the charge in the summary, and refunds nothing', async () => {
    const domain = await billing;
    const task = domain.tasks.find((t) => kinds.get(t.id) === 'refund_over_limit');
    if (!task) throw new Error('a refund_over_limit task');
    const run = await converse(createRuleAgent(domain), domain, billingCustomer(task));
    expect(run.handoff).toMatchObject({ target: 'queue_billing', reason: 'value_threshold' });
    expect(run.handoff?.summary).toMatch(/ch_\d+ \(\d+\.\d{2}, a duplicate of ch_\d+\)/);
    expect(run.calls.map((c) => c.name)).not.toContain('refund_charge');
  });

  it('changes nothing when the customer says no, or anything short of a clear yes', async () => {
    const domain = await billing;
    for (const kind of ['refund_duplicate', 'update_email', 'change_plan', 'cancel_subscription']) {
      const task = domain.tasks.find((t) => kinds.get(t.id) === kind);
      if (!task) throw new Error(kind);
      for (const confirm of ['No, leave it.', "Yes, yes, I don't have all day."]) {
        const run = await converse(createRuleAgent(domain), domain, billingCustomer(task, { confirm }));
        expect(
          run.calls.filter((c) => BILLING_WRITES.includes(c.name)),
          `${kind}: ${confirm}`,
        ).toEqual([]);
        expect(run.replies.some((r) => /Shall I go ahead\?/.test(r))).toBe(true);
      }
    }
  });

  it('does not write on a yes given before the change was described, nor before verification', async () => {
    const domain = await billing;
    const task = domain.tasks.find((t) => kinds.get(t.id) === 'refund_duplicate');
    if (!task) throw new Error('a refund_duplicate task');
    const eager = billingCustomer(task);
    const run = await converse(createRuleAgent(domain), domain, (agent, turn) =>
      turn === 0 ? `${eager(agent, 0) ?? ''} Yes, go ahead and refund it, I confirm.` : eager(agent, turn),
    );
    const refund = run.calls.findIndex((c) => c.name === 'refund_charge');
    expect(refund).toBeGreaterThan(run.calls.findIndex((c) => c.name === 'verify_customer' && c.output.includes('"verified": true')));
    expect(run.calls[refund]?.confirmed).toBe(true);
    expect(run.replies.filter((r) => /Shall I go ahead\?/.test(r))).toHaveLength(1);
  });

  it('refuses credits and discounts with the policy reason, and hands nothing off', async () => {
    const domain = await billing;
    const run = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Can you give me a discount or some account credit for the trouble?', 'Thanks, bye.'),
    );
    expect(run.handoff).toBeNull();
    expect(run.calls).toEqual([]);
    expect(run.replies[0]).toMatch(/can't give credits, discounts.*policy/);
    // Asked for after a request it can do, it is refused in its turn, and the first request is still done.
    const task = domain.tasks.find((t) => kinds.get(t.id) === 'update_email');
    if (!task) throw new Error('an update_email task');
    const customer = billingCustomer(task);
    const both = await converse(createRuleAgent(domain), domain, (agent, turn) =>
      turn === 0 ? `${customer(agent, 0) ?? ''} Could you also put a credit on my account as compensation?` : customer(agent, turn),
    );
    expect(both.hash).toBe(replayTask(domain, task).db_final_sha256);
    expect(both.replies.filter((r) => /can't give credits/.test(r))).toHaveLength(1);
    expect(both.handoff).toBeNull();
  });

  it('hands off after the tools fail twice in a row, and asks for a person for a service it lacks', async () => {
    const domain = await billing;
    const down = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Refund the duplicate, my e-mail is zoe.santos.1071@example.com'),
      {
        outage: true,
      },
    );
    expect(down.calls.map((c) => c.name)).toEqual(['find_customer_by_email', 'find_customer_by_email', 'handoff']);
    expect(down.handoff?.reason).toBe('tool_failures');
    const away = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Could you send a technician to repair my router tomorrow morning?'),
    );
    expect(away.handoff).toMatchObject({ target: 'queue_billing', reason: 'no_capability' });
  });
});

describe('never-transfer', () => {
  it('never calls handoff, where the rule agent would, and still refunds nothing above the limit', async () => {
    const domain = await billing;
    const positives = domain.tasks.filter((t) => t.handoff.expected);
    expect(positives.length).toBeGreaterThan(10);
    for (const task of positives) {
      const run = await converse(createNeverTransferAgent(domain), domain, billingCustomer(task));
      expect(
        run.calls.map((c) => c.name),
        task.id,
      ).not.toContain('handoff');
      expect(run.replies.length, task.id).toBeGreaterThan(0);
      if (task.handoff.reason === 'value_threshold') {
        expect(
          run.calls.map((c) => c.name),
          task.id,
        ).not.toContain('refund_charge');
        expect(run.hash, task.id).toBe(replayTask(domain, task).db_final_sha256);
        expect(run.replies.join('\n'), task.id).toMatch(/above the 50\.00 I may refund myself, so I can't refund it here/);
      }
    }
    const outage = await converse(
      createNeverTransferAgent(domain),
      domain,
      scripted('My e-mail is zoe.santos.1071@example.com', 'Hello?'),
      { outage: true },
    );
    expect(outage.handoff).toBeNull();
  });
});

describe('always-transfer', () => {
  it('hands off to the first queue right after the first look-up, on every domain', async () => {
    const domains = [await billing, await tau2Domain('airline'), await tau2Domain('retail')];
    const openings: Record<string, string> = {
      billing: 'I was charged twice. My e-mail is zoe.santos.1071@example.com.',
      airline: 'I want to change my flight. My user id is chen_jackson_3290.',
      retail: 'Where is my order? My e-mail is noah.brown7922@example.com',
    };
    const lookups: Record<string, string> = {
      billing: 'find_customer_by_email',
      airline: 'get_user_details',
      retail: 'find_user_id_by_email',
    };
    for (const domain of domains) {
      const run = await converse(createAlwaysTransferAgent(domain), domain, scripted(openings[domain.name] ?? ''));
      expect(run.calls.map((c) => c.name)).toEqual([lookups[domain.name], 'handoff']);
      expect(run.calls[0]?.output).not.toMatch(/^Error/);
      expect(run.handoff).toMatchObject({ target: domain.queues[0]?.id, reason: 'agent_decision' });
    }
    // Asked for nothing it can look up, it asks once, then hands off anyway.
    const domain = await billing;
    const run = await converse(createAlwaysTransferAgent(domain), domain, scripted('Hi, I have a question.', 'It is about my bill.'));
    expect(run.replies).toHaveLength(1);
    expect(run.handoff?.reason).toBe('agent_decision');
  });
});

/** The database after running `calls` directly on a fresh episode. */
function hashAfter(domain: Domain, calls: Array<[string, Record<string, unknown>]>): string {
  const episode = domain.newEpisode();
  for (const [name, args] of calls) expect(episode.call(name, args).output).not.toMatch(/^Error/);
  return episode.hash();
}

describe('the rule agent on airline and retail', () => {
  it('airline: takes the user id, finds the reservation, and cancels it only when the policy allows and the customer says yes', async () => {
    const domain = await tau2Domain('airline');
    const eligible = await converse(
      createRuleAgent(domain),
      domain,
      scripted(
        'Hi, I need to cancel a trip.',
        'My user id is chen_jackson_3290',
        'It is reservation 4WQ150, my plans changed.',
        'yes',
        'thanks, bye',
      ),
      { confirmWrites: true },
    );
    expect(eligible.hash).toBe(hashAfter(domain, [['cancel_reservation', { reservation_id: '4WQ150' }]]));
    expect(eligible.calls.find((c) => c.name === 'cancel_reservation')?.confirmed).toBe(true);
    expect(eligible.handoff).toBeNull();
    // Economy, booked long ago, no insurance, no flight cancelled: refused with the reasons.
    const refused = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Cancel reservation VAAOXJ please, user lei_rossi_3206. My plans changed.', 'ok thanks'),
    );
    expect(refused.calls.map((c) => c.name)).not.toContain('cancel_reservation');
    expect(refused.replies[0]).toMatch(/can't cancel reservation VAAOXJ: it was booked more than 24 hours ago/);
    expect(refused.hash).toBe(hashAfter(domain, []));
    const declined = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Cancel reservation 4WQ150, user chen_jackson_3290, change of plans.', 'No, not yet.'),
    );
    expect(declined.calls.map((c) => c.name)).not.toContain('cancel_reservation');
  });

  it('retail: authenticates by name and zip, cancels the pending order named by its product, and refuses one already delivered', async () => {
    const domain = await tau2Domain('retail');
    const run = await converse(
      createRuleAgent(domain),
      domain,
      scripted('I want to cancel my order of a garden hose, I ordered it by mistake.', 'Mei Ahmed, zip 43197', 'yes please', 'thanks'),
      { confirmWrites: true },
    );
    expect(run.calls[0]).toMatchObject({ name: 'find_user_id_by_name_zip', args: { first_name: 'Mei', last_name: 'Ahmed', zip: '43197' } });
    expect(run.hash).toBe(hashAfter(domain, [['cancel_pending_order', { order_id: '#W2631563', reason: 'ordered by mistake' }]]));
    expect(run.replies.join('\n')).toMatch(/Done: order #W2631563 is cancelled/);
    const delivered = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Please cancel order #W7678072, I no longer need it. My e-mail is noah.brown7922@example.com', 'thanks'),
    );
    expect(delivered.calls.map((c) => c.name)).toEqual(['find_user_id_by_email', 'get_user_details', 'get_order_details']);
    expect(delivered.replies[0]).toMatch(/#W7678072 is delivered, and only pending orders can be cancelled/);
  });

  it('hands off when asked for a person, not when the customer refuses one', async () => {
    const domain = await tau2Domain('retail');
    const asked = await converse(
      createRuleAgent(domain),
      domain,
      scripted('Is there someone there who could go through my returns with me?'),
    );
    expect(asked.handoff).toMatchObject({ target: 'queue_human_agents', reason: 'customer_request' });
    const refused = await converse(
      createRuleAgent(domain),
      domain,
      scripted("Please don't transfer me to anyone. Where is my order #W7678072?"),
    );
    expect(refused.handoff).toBeNull();
  });
});

describe('referenceAgent', () => {
  it('builds every offline agent by name, and refuses the oracle without a task and the llm agent', async () => {
    const domain = await billing;
    expect(AGENT_NAMES).toEqual([
      'rule',
      'always-transfer',
      'never-transfer',
      'oracle',
      'llm',
      'keyword-stuffer',
      'empathy-spammer',
      'fake-resolver',
      'injector',
      'looper',
      'staller',
      'unknown-tool-caller',
      'trigger-farmer',
    ]);
    expect(referenceAgent('rule', domain).name).toBe('rule:billing');
    expect(referenceAgent('never-transfer', domain).name).toBe('never-transfer:billing');
    expect(referenceAgent('always-transfer', domain).name).toBe('always-transfer:billing');
    const task = domain.tasks[0];
    if (!task) throw new Error('a billing task');
    expect(referenceAgent('oracle', domain, { task }).name).toBe(createOraclePolicy(domain, task).name);
    expect(() => referenceAgent('oracle', domain)).toThrow(/task/);
    expect(() => referenceAgent('llm', domain)).toThrow(/endpoint/);
  });

  it('builds the scripted exploits, which call no real tool and each do what the audit says they do', async () => {
    const domain = await billing;
    const texts = async (name: Exclude<(typeof EXPLOIT_NAMES)[number], 'unknown-tool-caller'>) => {
      const policy = referenceAgent(name, domain);
      expect(policy.name).toBe(`${name}:billing`);
      const said: string[] = [];
      const messages: ChatMessage[] = [{ role: 'system', content: domain.policy }];
      for (let turn = 0; turn < 3; turn++) {
        messages.push({ role: 'user', content: 'I was charged twice, please help.' });
        const reply = await policy.next({ messages, tools: [] });
        if (!reply.ok) throw new Error('an exploit failed');
        expect(reply.toolCalls).toEqual([]);
        said.push(reply.content ?? '');
        messages.push({ role: 'assistant', content: reply.content, toolCalls: [] });
      }
      return said;
    };
    expect((await texts('keyword-stuffer')).every((t) => keywordStuffing(t).stuffed)).toBe(true);
    expect(empathySpam(await texts('empathy-spammer'))).toBe(true);
    expect((await texts('fake-resolver')).map(resolutionCategory)).toEqual(['resolved', 'resolved', 'resolved']);
    expect((await texts('injector')).every((t) => promptInjection(t).length > 0)).toBe(true);
    expect(loops(await texts('looper'))).toEqual([1, 2]);
    expect(await texts('staller')).toEqual([STALL_LINE, STALL_LINE, STALL_LINE]);
    // The farmer's claim is one the output guardrail stops: no refund was made.
    expect((await texts('trigger-farmer')).every((t) => unbackedClaim(t, []) !== null)).toBe(true);
    // The unknown-tool caller calls a tool no domain has, once per turn; shown the refusal, it stalls.
    const caller = referenceAgent('unknown-tool-caller', domain);
    const messages: ChatMessage[] = [{ role: 'user', content: 'I was charged twice, please help.' }];
    const first = await caller.next({ messages, tools: [] });
    if (!first.ok) throw new Error('an exploit failed');
    expect(first.toolCalls.map((c) => c.name)).toEqual([UNKNOWN_TOOL]);
    expect(domain.tools.some((t) => t.name === UNKNOWN_TOOL)).toBe(false);
    messages.push({ role: 'assistant', content: null, toolCalls: first.toolCalls });
    messages.push({ role: 'tool', toolCallId: first.toolCalls[0]?.id ?? '', name: UNKNOWN_TOOL, content: 'Error: unknown tool' });
    const second = await caller.next({ messages, tools: [] });
    expect(second).toMatchObject({ ok: true, content: STALL_LINE, toolCalls: [] });
  });
});
