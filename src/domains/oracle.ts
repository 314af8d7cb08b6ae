/**
 * The oracle agent: it replays a task's gold actions in order (transferring where the gold
 * trajectory does), tells the customer what the task expects to be communicated, and lets the
 * customer end the chat. It is the reference that validates the evaluator end to end: every
 * judge-free task must score 1.0 through it. It knows the answers; it is not an agent to deploy.
 *
 * It exists in two forms: `runOracle` drives an episode directly and returns the trajectory, and
 * `createOraclePolicy` is the same behaviour behind the harness's policy port.
 */
import type { Policy, PolicyResponse } from '../core/index.js';
import type { Domain, DomainTask, GoldAction } from './domain.js';
import { TRANSFER_TOOLS } from './evaluator.js';
import { OPENING_MESSAGE, type Trajectory, type TrajectoryMessage } from './trajectory.js';

/** The oracle's next move: a gold action, or its one text message. */
export type OracleStep = { kind: 'call'; action: GoldAction; index: number } | { kind: 'say'; text: string };

const isTransfer = (domain: Pick<Domain, 'transferTool'>, name: string) => name === domain.transferTool || TRANSFER_TOOLS.has(name);

/** What the oracle says: everything the task expects communicated, verbatim. */
export function oracleMessage(task: DomainTask): string {
  if (task.communicateInfo.length === 0) return 'Your request has been taken care of. Is there anything else I can help you with?';
  return `Here is what I found: ${task.communicateInfo.join('; ')}. Is there anything else I can help you with?`;
}

/** The oracle's moves for a task: the assistant's gold actions, with its message before the first transfer (or last). */
export function oracleSteps(domain: Pick<Domain, 'transferTool'>, task: DomainTask): OracleStep[] {
  const actions = (task.actions ?? []).filter((a) => a.requestor === 'assistant');
  const steps: OracleStep[] = actions.map((action, index) => ({ kind: 'call', action, index }));
  const transfer = steps.findIndex((s) => s.kind === 'call' && isTransfer(domain, s.action.name));
  const say: OracleStep = { kind: 'say', text: oracleMessage(task) };
  if (transfer === -1) steps.push(say);
  else steps.splice(transfer, 0, say);
  return steps;
}

/** The customer's opening line, from the task's scenario. */
export function openingRequest(task: DomainTask): string {
  const { instructions } = task.userScenario;
  return typeof instructions === 'string' ? instructions : instructions.reason_for_call;
}

/** Runs the oracle on a fresh episode of `domain` and returns the trajectory it leaves. */
export function runOracle(domain: Domain, task: DomainTask): Trajectory {
  const episode = domain.newEpisode();
  const messages: TrajectoryMessage[] = [
    { role: 'assistant', content: OPENING_MESSAGE, toolCalls: [] },
    { role: 'user', content: openingRequest(task), toolCalls: [] },
  ];
  let transferred = false;
  for (const step of oracleSteps(domain, task)) {
    if (step.kind === 'say') {
      messages.push({ role: 'assistant', content: step.text, toolCalls: [] });
      continue;
    }
    const id = `call_${step.index}`;
    const { name, arguments: args } = step.action;
    messages.push({ role: 'assistant', content: null, toolCalls: [{ id, name, arguments: args, requestor: 'assistant' }] });
    const result = episode.call(name, args);
    messages.push({ role: 'tool', id, content: result.output, error: result.error, requestor: 'assistant' });
    transferred ||= isTransfer(domain, name);
  }
  messages.push({ role: 'user', content: transferred ? '###TRANSFER###' : '###STOP###', toolCalls: [] });
  return { messages, termination: 'user_stop' };
}

/**
 * The oracle behind the policy port: each request gets the next step, found by counting the
 * tool calls the conversation already holds. Usage is zero: no model runs.
 */
export function createOraclePolicy(domain: Pick<Domain, 'transferTool'>, task: DomainTask): Policy {
  const steps = oracleSteps(domain, task);
  return {
    name: `oracle:${task.domain}/${task.id}`,
    next: async ({ messages }): Promise<PolicyResponse> => {
      const calls = messages.reduce((n, m) => n + (m.role === 'assistant' ? m.toolCalls.length : 0), 0);
      const spoke = messages.some((m) => m.role === 'assistant' && m.content === oracleMessage(task));
      const position = calls + (spoke ? 1 : 0);
      const step = steps[position];
      const usage = { promptTokens: 0, completionTokens: 0 };
      if (!step) return { ok: true, content: 'Is there anything else I can help you with?', toolCalls: [], usage };
      if (step.kind === 'say') {
        // Said just before a transfer, the message goes with the transfer: a reply would end the
        // turn, and the customer would leave before being handed off.
        const after = steps[position + 1];
        if (after?.kind === 'call' && isTransfer(domain, after.action.name)) {
          const call = { id: `call_${after.index}`, name: after.action.name, arguments: JSON.stringify(after.action.arguments) };
          return { ok: true, content: step.text, toolCalls: [call], usage };
        }
        return { ok: true, content: step.text, toolCalls: [], usage };
      }
      const call = { id: `call_${step.index}`, name: step.action.name, arguments: JSON.stringify(step.action.arguments) };
      return { ok: true, content: null, toolCalls: [call], usage };
    },
  };
}
