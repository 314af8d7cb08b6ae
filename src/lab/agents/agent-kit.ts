/**
 * What every reference agent shares: its next step as data (a tool call, a message, or a hand-off),
 * turned into the policy port's answer; the queue a hand-off goes to; the hand-offs due before any
 * request is worked on; a proposed change that runs only on the customer's explicit yes; and what
 * to say once the recognised requests are done.
 */
import { HANDOFF_TOOL, TAU2_TRANSFER_TOOL, type DeciderReason, type PolicyResponse } from '../../core/index.js';
import type { Domain } from '../../domains/domain.js';
import { alreadySaid, askAgain, confirmed, declined, isClosing, type ConversationView } from './conversation.js';
import { outOfScopeIn, triggersInLatestTurn, type Trigger } from './handoff-triggers.js';

/** A reason the `handoff` tool accepts. */
export type AgentHandoffReason = DeciderReason | 'agent_decision';

/** An agent's next move. */
export type Step =
  | {
      kind: 'call';
      name: string;
      args: Record<string, unknown>;
      /** A retry of a call that just failed for an outage: allowed once more in the same turn. */
      retry?: boolean;
    }
  | { kind: 'say'; text: string }
  | {
      kind: 'handoff';
      target: string;
      reason: AgentHandoffReason;
      /** For whoever takes over: who the customer is, what they want, what was done. */
      summary: string;
      /** One sentence for the customer: who takes over. */
      text: string;
      /** What the agent says instead when it may not hand off (`never-transfer`). */
      instead: string;
    };

/** Options every rule agent takes. */
export interface RuleAgentOptions {
  /** Whether the agent may call `handoff` (default true). `false` is the `never-transfer` agent. */
  handoff?: boolean;
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

/** How often the same call (name and arguments) was made in this turn: making it again would loop. */
function madeThisTurn(view: ConversationView, name: string, args: Record<string, unknown>): number {
  const key = JSON.stringify(args);
  return view.tools.filter((t) => t.thisTurn && t.name === name && JSON.stringify(t.args) === key).length;
}

/** A short fallback when a step would only repeat what already happened in this turn. */
const STUCK = "I'm sorry, I couldn't get that done just now. Could you tell me again what you need, with any ids or amounts you have?";

/**
 * The policy port's answer for a step. A hand-off becomes a `handoff` call (or tau2-bench's
 * `transfer_to_human_agents` where only that is offered) with its sentence for the customer as
 * content; with hand-off disabled, or when neither tool is offered, the agent says `instead`.
 * A call that would repeat one already made in this turn is replaced by a message, so an agent
 * cannot spin until the harness's step limit.
 */
export function respond(view: ConversationView, step: Step, canHandoff: boolean): PolicyResponse {
  const say = (text: string): PolicyResponse => ({ ok: true, content: text, toolCalls: [], usage: NO_USAGE });
  const call = (name: string, args: Record<string, unknown>, content: string | null = null): PolicyResponse => ({
    ok: true,
    content,
    toolCalls: [{ id: `call_rule_${view.tools.length}`, name, arguments: JSON.stringify(args) }],
    usage: NO_USAGE,
  });
  if (step.kind === 'say') return say(step.text);
  if (step.kind === 'call')
    return madeThisTurn(view, step.name, step.args) > (step.retry ? 1 : 0) ? say(STUCK) : call(step.name, step.args);
  if (!canHandoff) return say(step.instead);
  if (view.offered.has(HANDOFF_TOOL)) {
    const args = { target: step.target, reason: step.reason, summary: step.summary };
    return madeThisTurn(view, HANDOFF_TOOL, args) > 0 ? say(step.instead) : call(HANDOFF_TOOL, args, step.text);
  }
  if (view.offered.has(TAU2_TRANSFER_TOOL)) return call(TAU2_TRANSFER_TOOL, { summary: step.summary }, step.text);
  return say(step.instead);
}

type Topic = 'complaint' | 'bereavement' | 'legal';

/**
 * Where a hand-off for `reason` goes: the domain's decider policy says (the queue of a reserved
 * topic, else of the reason, else its default), else the domain's first queue.
 */
export function targetFor(domain: Pick<Domain, 'queues' | 'deciderPolicy'>, reason: DeciderReason, topic: Topic | null = null): string {
  const policy = domain.deciderPolicy;
  return (topic ? policy.topicTargets[topic] : undefined) ?? policy.targets[reason] ?? firstQueue(domain) ?? policy.defaultTarget;
}

/** The domain's first human queue. */
export const firstQueue = (domain: Pick<Domain, 'queues'>): string => domain.queues[0]?.id ?? 'queue_human_agents';

/** The queue whose staff verify identities (by id or skills), else the domain's first queue. */
export function identityQueue(domain: Pick<Domain, 'queues'>): string {
  const pattern = /identity|security/;
  return domain.queues.find((q) => pattern.test(q.id) || q.skills.some((s) => pattern.test(s)))?.id ?? firstQueue(domain);
}

/**
 * The hand-off for the first of the triggers that always goes to a person (safety, a request for
 * one, a reserved topic), or null. `who` describes the customer for the summary.
 */
export function escalationFor(
  domain: Pick<Domain, 'queues' | 'deciderPolicy'>,
  triggers: readonly Trigger[],
  who: string,
  help: string,
): Step | null {
  const order: Trigger['reason'][] = ['safety', 'customer_request', 'policy_topic'];
  for (const reason of order) {
    const trigger = triggers.find((t) => t.reason === reason);
    if (!trigger) continue;
    const target = targetFor(domain, reason, trigger.topic);
    const what =
      reason === 'safety'
        ? 'may be at risk'
        : reason === 'customer_request'
          ? 'asks to speak to a person'
          : `raises a topic reserved for humans (${trigger.topic ?? 'policy topic'})`;
    return {
      kind: 'handoff',
      target,
      reason,
      summary: `${who} ${what}: "${trigger.evidence.slice(0, 300)}".`,
      text: `I'm passing you to a colleague in ${target.replace(/^queue_/, '').replace(/_/g, ' ')}, who will take it from here and will see everything we've discussed.`,
      instead:
        reason === 'customer_request'
          ? `I'm sorry, I can't transfer this conversation from here, but I can help you myself: ${help}`
          : `I'm sorry, I'm not able to pass this on from here. ${help}`,
    };
  }
  return null;
}

/**
 * What comes before any request is worked on: a hand-off the policy prescribes at once (safety, a
 * person asked for, a reserved topic), or a request nothing the agent handles covers (`inScope`
 * tells what it handles). With hand-off disabled the agent says once that it cannot pass the
 * conversation on, then carries on.
 */
export function beforeRequests(
  view: ConversationView,
  domain: Pick<Domain, 'queues' | 'deciderPolicy'>,
  options: { canHandoff: boolean; who: string; help: string; inScope: (text: string) => boolean },
): Step | null {
  const { canHandoff, who, help } = options;
  const escalation = escalationFor(domain, triggersInLatestTurn(view), who, help);
  if (escalation?.kind === 'handoff' && (canHandoff || !alreadySaid(view, escalation.instead))) return escalation;
  const outOfScope = isClosing(view.latest) ? null : outOfScopeIn(view.latest, options.inScope);
  if (!outOfScope) return null;
  const instead = `I'm sorry, I can't help with that. ${help}`;
  if (!canHandoff && alreadySaid(view, instead)) return null;
  return {
    kind: 'handoff',
    target: targetFor(domain, 'no_capability'),
    reason: 'no_capability',
    summary: `${who} asks for something this agent cannot do: "${outOfScope.slice(0, 300)}".`,
    text: "That is something I can't do here, so I'm passing you to a colleague who can look into it.",
    instead,
  };
}

/**
 * One proposed change: the write on an explicit yes to `proposal`; `no` (once) when the customer
 * turned it down, then null (nothing left to do); the proposal again, asking for a plain yes,
 * when the answer was neither; else the proposal.
 */
export function proposeWrite(
  view: ConversationView,
  proposal: string,
  call: { name: string; args: Record<string, unknown> },
  no: string,
): Step | null {
  if (confirmed(view, proposal)) return { kind: 'call', ...call };
  if (alreadySaid(view, no)) return null;
  if (declined(view, proposal)) return { kind: 'say', text: no };
  const asked = view.lastAgentText?.endsWith(proposal) ?? false;
  return { kind: 'say', text: asked && !isClosing(view.latest) ? askAgain(proposal) : proposal };
}

/**
 * What a rule agent says once the requests it recognised are done (or when it recognised none):
 * goodbye to thanks; "how can I help" only while the customer has not asked for anything; else,
 * once, that it cannot do what was asked (the customer would otherwise restate it in a loop),
 * then "anything else?".
 */
export function closingStep(view: ConversationView, recognised: number, help: string): Step {
  if (isClosing(view.latest)) return { kind: 'say', text: "You're welcome! Have a good day." };
  if (recognised > 0) return { kind: 'say', text: 'Is there anything else I can help you with?' };
  // The customer has said what they want: a question, a request, or an opening of a few words.
  const asked = view.customerTexts.some(
    (t) => /\?|\b(?:want|need|would like|'d like|could you|can you|please)\b/i.test(t) || t.split(/\s+/).length >= 8,
  );
  if (!asked) return { kind: 'say', text: `How can I help you today? ${help}` };
  const cannot = `I'm sorry, I can't do that in this chat. ${help}`;
  return { kind: 'say', text: alreadySaid(view, cannot) ? 'Is there anything else I can help you with?' : cannot };
}
