import type { Policy } from '../../src/core/index.js';

/**
 * An agent for the review tests: it hands a message that mentions a bill to billing's queue
 * (reason `customer_request`) and answers anything else itself, so one runtime has both
 * hand-offs and conversations the agent kept.
 */
export const billingOrNot = (): Policy => ({
  name: 'billing-or-not',
  next: async (request) => {
    const last = request.messages.findLast((m) => m.role === 'user');
    const text = typeof last?.content === 'string' ? last.content : '';
    return /\bbill\b/i.test(text)
      ? {
          ok: true,
          content: null,
          toolCalls: [
            {
              id: 'call_1',
              name: 'handoff',
              arguments: JSON.stringify({ target: 'queue_billing', reason: 'customer_request', summary: 'a question about a bill' }),
            },
          ],
          usage: { promptTokens: 1, completionTokens: 1 },
        }
      : { ok: true, content: 'Our shop opens at nine.', toolCalls: [], usage: { promptTokens: 1, completionTokens: 1 } };
  },
});
