/**
 * The lab's reference agents, each a policy behind the harness's policy port: `rule` (the
 * deterministic baseline per domain), `always-transfer` (hands off after the first look-up),
 * `never-transfer` (the rule agent that never hands off), `oracle` (replays a task's gold actions)
 * and `llm` (the harness with an OpenAI-compatible model, built by the runner, not here); and the
 * loophole audit's scripted exploits (`keyword-stuffer`, `empathy-spammer`, `fake-resolver`,
 * `injector`, `looper`).
 */
import type { Policy } from '../../core/index.js';
import type { Domain, DomainTask } from '../../domains/domain.js';
import { createOraclePolicy } from '../../domains/oracle.js';
import { createAlwaysTransferAgent } from './always-transfer.js';
import { createExploitAgent } from './exploits.js';
import { isExploitName, type AgentName } from './names.js';
import { createNeverTransferAgent, createRuleAgent } from './rule-agent.js';

export { createAlwaysTransferAgent } from './always-transfer.js';
export { createNeverTransferAgent, createRuleAgent } from './rule-agent.js';
export { createExploitAgent } from './exploits.js';
export { AGENT_NAMES, EXPLOIT_NAMES, isAgentName, isExploitName, type AgentName, type ExploitName } from './names.js';
export type { RuleAgentOptions } from './agent-kit.js';

/**
 * The offline reference agent `name` for a domain. The oracle needs the task it replays; `llm`
 * needs an endpoint and is built by the runner (`src/llm/openai-policy.ts`), so it is refused here.
 */
export function referenceAgent(name: AgentName, domain: Domain, options: { task?: DomainTask } = {}): Policy {
  if (isExploitName(name)) return createExploitAgent(name, domain);
  switch (name) {
    case 'rule':
      return createRuleAgent(domain);
    case 'always-transfer':
      return createAlwaysTransferAgent(domain);
    case 'never-transfer':
      return createNeverTransferAgent(domain);
    case 'oracle':
      if (!options.task) throw new Error('the oracle agent replays a task: pass { task }');
      if (options.task.domain !== domain.name)
        throw new Error(`task ${options.task.id} is from ${options.task.domain}, not ${domain.name}`);
      return createOraclePolicy(domain, options.task);
    case 'llm':
      throw new Error(
        'the llm agent needs a model endpoint: build it with the OpenAI-compatible policy (src/llm/openai-policy.ts), not referenceAgent',
      );
  }
}
