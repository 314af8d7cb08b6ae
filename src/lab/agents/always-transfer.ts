/**
 * The `always-transfer` reference agent: the loophole strategy reported for outcome-only rewards.
 * It does the first look-up it can (finding the customer by e-mail, by name and zip, or by user
 * id, whichever the domain's tools allow), then hands the conversation to the domain's first human
 * queue with reason `agent_decision`, whatever the customer wanted.
 */
import { isHandoffToolName, type Policy, type PolicyResponse } from '../../core/index.js';
import type { Domain } from '../../domains/domain.js';
import { firstQueue, respond, type Step } from './agent-kit.js';
import { readConversation, type ConversationView } from './conversation.js';
import { emailsIn, namesIn, zipsIn } from './text-facts.js';

/** The first look-up the customer's messages allow with the domain's tools, if any. */
function firstLookup(view: ConversationView, tools: ReadonlySet<string>): Step | null {
  const all = view.customerTexts.join('\n');
  const email = emailsIn(all)[0];
  const byEmail = [...tools].find((t) => /^find_\w*_by_email$/.test(t));
  if (email && byEmail) return { kind: 'call', name: byEmail, args: { email } };
  const zip = zipsIn(all)[0];
  const name = namesIn(all)[0];
  if (zip && name && tools.has('find_user_id_by_name_zip')) {
    return { kind: 'call', name: 'find_user_id_by_name_zip', args: { first_name: name.first, last_name: name.last, zip } };
  }
  const userId = /\b[a-z]+_[a-z]+_\d{3,5}\b/i.exec(all)?.[0];
  if (userId && tools.has('get_user_details')) return { kind: 'call', name: 'get_user_details', args: { user_id: userId } };
  return null;
}

/** The always-transfer agent for a domain. */
export function createAlwaysTransferAgent(domain: Domain): Policy {
  const tools = new Set(domain.tools.map((t) => t.name));
  return {
    name: `always-transfer:${domain.name}`,
    next: async ({ messages, tools: offered }): Promise<PolicyResponse> => {
      const view = readConversation(messages, offered);
      const lookedUp = view.tools.find((t) => !isHandoffToolName(t.name));
      const lookup = lookedUp ? null : firstLookup(view, tools);
      if (lookup) return respond(view, lookup, true);
      if (!lookedUp && view.agentTexts.length === 0) {
        const text =
          'Hello! To find your account, could you give me your e-mail address (or your first and last name and zip code, or your user id)?';
        return respond(view, { kind: 'say', text }, true);
      }
      const found = lookedUp?.ok
        ? lookedUp.json === null
          ? lookedUp.output.trim()
          : Object.values(lookedUp.args).map(String).join(' ')
        : null;
      const who = found ? `Customer ${found.slice(0, 80)}` : 'An unidentified customer';
      const target = firstQueue(domain);
      return respond(
        view,
        {
          kind: 'handoff',
          target,
          reason: 'agent_decision',
          summary: `${who}${lookedUp?.ok ? '' : ' (look-up not done)'} wrote: "${(view.customerTexts[0] ?? '').slice(0, 300)}". Handed off after the first look-up.`,
          text: "I'm passing you to a colleague who will take it from here.",
          instead: "I'm sorry, I can't help with this here.",
        },
        true,
      );
    },
  };
}
