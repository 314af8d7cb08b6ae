/** The agents' names, apart from the agents themselves so that the command line can list them cheaply. */

/** The loophole audit's scripted exploits (`exploits.ts`). */
export const EXPLOIT_NAMES = [
  'keyword-stuffer',
  'empathy-spammer',
  'fake-resolver',
  'injector',
  'looper',
  'staller',
  'unknown-tool-caller',
  'trigger-farmer',
] as const;
export type ExploitName = (typeof EXPLOIT_NAMES)[number];

export const isExploitName = (name: string): name is ExploitName => (EXPLOIT_NAMES as readonly string[]).includes(name);

/** Every agent `baton eval` runs: the reference agents, `llm`, and the exploits. */
export const AGENT_NAMES = ['rule', 'always-transfer', 'never-transfer', 'oracle', 'llm', ...EXPLOIT_NAMES] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

/** Whether a string names an agent. */
export const isAgentName = (name: string): name is AgentName => (AGENT_NAMES as readonly string[]).includes(name);
