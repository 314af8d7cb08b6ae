/**
 * Scripted L1 agents for the hierarchy's audit: each proposes a wrong change (the reference
 * solution of `proposed`, a task like the one played but with another write), and when the
 * supervisor rejects it either **follows** the feedback (makes the played task's own call of that
 * tool) or **ignores** it (proposes the same call again). They know the answers; they are test
 * policies, not agents to deploy.
 */
import type { Policy, PolicyResponse } from '../../core/index.js';
import type { Domain, DomainTask } from '../../domains/domain.js';
import { createOraclePolicy, oracleMessage } from '../../domains/oracle.js';
import { REVIEW_REJECTED } from '../run-episode.js';

const USAGE = { promptTokens: 0, completionTokens: 0 };

export function createScriptedL1(domain: Domain, played: DomainTask, proposed: DomainTask, mode: 'follow' | 'ignore'): Policy {
  const wrong = createOraclePolicy(domain, proposed);
  let rejected: { name: string; arguments: string } | null = null;
  return {
    name: `scripted-l1:${mode}`,
    next: async (request): Promise<PolicyResponse> => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool' && last.content.includes(REVIEW_REJECTED)) {
        const call = [...request.messages].reverse().find((m) => m.role === 'assistant' && m.toolCalls.length > 0);
        const first = call?.role === 'assistant' ? call.toolCalls[0] : undefined;
        if (first && mode === 'ignore' && rejected === null) {
          rejected = first;
          return { ok: true, content: null, toolCalls: [{ ...first, id: `${first.id}_again` }], usage: USAGE };
        }
        if (first && mode === 'follow') {
          const gold = (played.actions ?? []).find((a) => a.name === first.name);
          rejected = first;
          if (gold)
            return {
              ok: true,
              content: null,
              toolCalls: [{ id: `${first.id}_fixed`, name: gold.name, arguments: JSON.stringify(gold.arguments) }],
              usage: USAGE,
            };
        }
      }
      // After the fix, what the played task expects said, once.
      if (rejected && mode === 'follow') {
        const said = request.messages.some((m) => m.role === 'assistant' && m.content === oracleMessage(played));
        return {
          ok: true,
          content: said ? 'Is there anything else I can help you with?' : oracleMessage(played),
          toolCalls: [],
          usage: USAGE,
        };
      }
      return wrong.next(request);
    },
  };
}
