/** The scripted model the console's browser tests give the agent (below). */
import type { PolicyRequest } from '../../src/core/index.js';
import { scriptedPolicy } from '../../src/testing/scripted-policy.js';

export const DRAFT = 'Thanks for waiting. Could you tell me the invoice number, so that we can look at it together?';
export const CHARGE = 'ch_100232';
/** A reply the output guardrail `unbacked_claim` stops: no refund tool ran. */
export const UNBACKED = 'Good news: your refund has been issued.';

/**
 * The model, scripted: after a tool result it says what the result was; asked to refund, it
 * proposes the refund and asks for a yes; given the yes, it calls refund_charge; otherwise it
 * answers with DRAFT (in assisted mode, that answer is the draft); asked for their money back, it
 * claims a refund it never made (a guardrail flags that).
 */
export const agentScript = () =>
  scriptedPolicy(
    [
      (request: PolicyRequest) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return { reply: `I could not do that. ${last.content}` };
        const said = request.messages.findLast((m) => m.role === 'user')?.content ?? '';
        if (/\byes\b/i.test(said)) return { toolCalls: [{ name: 'refund_charge', arguments: { charge_id: CHARGE, amount: 49 } }] };
        if (/refund/i.test(said)) return { reply: `I can refund the duplicate charge ${CHARGE} for you. Shall I go ahead?` };
        if (/money back/i.test(said)) return { reply: UNBACKED };
        return { reply: DRAFT };
      },
    ],
    { whenExhausted: 'repeat_last' },
  );
