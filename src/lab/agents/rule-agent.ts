/**
 * The `rule` reference agent: deterministic, offline, one rule set per domain behind one factory.
 * It is the honest baseline that needs no model: it authenticates, looks things up, describes each
 * change and waits for the customer's yes, does the common requests within policy (using the
 * domain's rules for eligibility), refuses what the policy forbids with the policy's reason, and
 * hands off where the policy says a person must take over. With hand-off disabled it is the
 * `never-transfer` agent.
 */
import type { Policy, PolicyResponse } from '../../core/index.js';
import type { Domain, DomainName } from '../../domains/domain.js';
import { proposeWrite, respond, targetFor, type RuleAgentOptions, type Step } from './agent-kit.js';
import { airlineStep } from './airline-agent.js';
import { billingStep } from './billing-agent.js';
import { alreadySaid, readConversation, type ConversationView } from './conversation.js';
import { retailStep } from './retail-agent.js';

/** One domain's rules: the next step from the conversation so far. */
export type DomainStep = (view: ConversationView, domain: Domain, canHandoff: boolean) => Step;

const STEPS: Record<DomainName, DomainStep> = { billing: billingStep, airline: airlineStep, retail: retailStep };

/**
 * The rule agent for a domain. It keeps no state between calls: every step is read back from the
 * messages, so the same conversation always gets the same answer.
 */
export function createRuleAgent(domain: Domain, options: RuleAgentOptions = {}): Policy {
  const canHandoff = options.handoff ?? true;
  const step = STEPS[domain.name];
  return {
    name: `${canHandoff ? 'rule' : 'never-transfer'}:${domain.name}`,
    next: async ({ messages, tools }): Promise<PolicyResponse> => {
      const view = readConversation(messages, tools);
      const next = outage(view, domain, canHandoff) ?? confirmFirst(view, domain, step(view, domain, canHandoff));
      return respond(view, next, canHandoff);
    },
  };
}

/** The `never-transfer` agent: the rule agent that never calls `handoff` (the runner also turns the decider off). */
export function createNeverTransferAgent(domain: Domain): Policy {
  return createRuleAgent(domain, { handoff: false });
}

/**
 * A write the harness refused for want of the customer's yes (it may ask for one before any write,
 * even one the agent thought needed none, such as checking a one-time code): the agent describes
 * the call and asks, and makes it again only on an explicit yes.
 */
function confirmFirst(view: ConversationView, domain: Domain, step: Step): Step {
  if (step.kind !== 'call' || !domain.isWrite(step.name)) return step;
  const key = JSON.stringify(step.args);
  const refused = view.tools.some((t) => t.refused && t.name === step.name && JSON.stringify(t.args) === key && /confirm/i.test(t.output));
  if (!refused) return step;
  const what = Object.entries(step.args)
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${Array.isArray(v) ? v.join(', ') : String(v)}`)
    .join(', ');
  const proposal = `To go ahead I need your confirmation: I will ${step.name.replace(/_/g, ' ')} (${what}). Shall I go ahead? Please answer yes or no.`;
  return (
    proposeWrite(view, proposal, step, `All right, I have not done that.`) ?? {
      kind: 'say',
      text: 'Is there anything else I can help you with?',
    }
  );
}

/**
 * Tools that stop answering: a call that just failed for an outage is tried once more; a second
 * failure in a row hands off (`tool_failures`), as the harness's decider would after its limit.
 * With hand-off disabled the agent says once that it cannot go on, then keeps trying.
 */
function outage(view: ConversationView, domain: Domain, canHandoff: boolean): Step | null {
  const run: ConversationView['tools'] = [];
  for (const t of [...view.tools].reverse()) {
    if (t.refused) continue;
    if (!t.outage) break;
    run.push(t);
  }
  const last = run[0];
  if (!last) return null;
  if (run.length === 1 && last.thisTurn) return { kind: 'call', name: last.name, args: last.args, retry: true };
  if (run.length < 2) return null;
  const instead = "I'm sorry, our systems aren't responding right now, so I can't complete this. Please try again a little later.";
  if (!canHandoff && alreadySaid(view, instead)) return null;
  return {
    kind: 'handoff',
    target: targetFor(domain, 'tool_failures'),
    reason: 'tool_failures',
    summary: `${run.length} tool calls in a row failed (${[...new Set(run.map((t) => t.name))].join(', ')}: ${last.output.slice(0, 200)}). Customer's request: "${(view.customerTexts[0] ?? '').slice(0, 200)}".`,
    text: "Our systems aren't responding right now, so I'm passing you to a colleague who can help.",
    instead,
  };
}
