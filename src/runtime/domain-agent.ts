import {
  buildContextPacket,
  TAU2_TRANSFER_TOOL,
  isHandoffToolName,
  type AgentId,
  type ContextPacketInput,
  type QueueId,
} from '../core/index.js';
import type { Domain } from '../domains/domain.js';
import type { AgentConfig } from './agent-config.js';
import { defineTool, type Tool, type ToolContext } from './tool.js';

/** The domain's tools the agent is offered as its own: all but the hand-off (the harness's typed action stands in its place). */
export function agentDomainTools(domain: Domain): Domain['tools'] {
  return domain.tools.filter((tool) => tool.name !== domain.transferTool && !isHandoffToolName(tool.name));
}

/** Options of {@link domainHarnessTools}. */
export interface DomainToolOptions {
  /** Writes wait for the customer's explicit yes (production's setting). */
  confirmWrites: boolean;
  /** Runs before each call; a thrown error fails the call as the tool would (the lab's injected outages). */
  beforeCall?: (tool: string, context: ToolContext) => void;
}

/** The domain's tools as the harness runs them, over one database (`episode`). */
export function domainHarnessTools(domain: Domain, episode: ReturnType<Domain['newEpisode']>, options: DomainToolOptions): Tool[] {
  return agentDomainTools(domain).map((tool) =>
    defineTool({
      name: tool.name,
      description: tool.description,
      kind: tool.kind === 'write' ? 'write' : 'read',
      schema: tool.schema,
      needsConfirmation: options.confirmWrites && tool.kind === 'write' && tool.needsConfirmation !== false,
      execute: (args: Record<string, unknown>, context: ToolContext) => {
        options.beforeCall?.(tool.name, context);
        const result = episode.call(tool.name, args);
        // The harness shows a thrown error as `Error: <message>`: tau2-bench's text exactly.
        if (result.error) throw new Error(result.output.replace(/^Error: /, ''));
        return result.output;
      },
    }),
  );
}

/** A domain's agent's edges in the hand-off graph: every human queue of the domain, and the agents given. */
export function handoffGraphOf(domain: Domain, agents: readonly AgentId[] = []): { queues: QueueId[]; agents: readonly AgentId[] } {
  return { queues: domain.queues.map((q) => q.id as QueueId), agents };
}

/** The queue a domain's hand-offs go to when no better target is known. */
export function defaultQueueOf(domain: Domain): QueueId {
  const queues = domain.queues.map((q) => q.id as QueueId);
  return (domain.deciderPolicy.defaultTarget as QueueId | undefined) ?? queues[0]!;
}

/**
 * An agent working a domain: its policy text, its tools, its hand-off edges (every human queue of
 * the domain, and the agents given), its rules. The lab and `baton serve` both build agents here.
 */
export function domainAgentConfig(
  domain: Domain,
  tools: readonly Tool[],
  overrides: { id: AgentId; agents?: readonly AgentId[]; instructions?: string } & Partial<Omit<AgentConfig, 'id' | 'tools' | 'handoff'>>,
): AgentConfig {
  const { agents = [], ...rest } = overrides;
  return {
    instructions: domain.policy,
    handoff: handoffGraphOf(domain, agents),
    defaultQueue: defaultQueueOf(domain),
    tau2TransferAlias: domain.transferTool === TAU2_TRANSFER_TOOL,
    rules: domain.rules,
    ...rest,
    tools,
  };
}

/**
 * The context-packet builder for a domain: it knows how the domain verifies customers, and which
 * of its tools read and which write (the domain says; a name is only a guess: billing's
 * `send_verification_code` reads, its `verify_customer` writes).
 */
export function domainPacketBuilder(domain: Domain): (input: ContextPacketInput) => ReturnType<typeof buildContextPacket> {
  const readTools = domain.tools.filter((t) => t.kind === 'read').map((t) => t.name);
  const writeTools = domain.tools.filter((t) => t.kind === 'write').map((t) => t.name);
  return (input) =>
    buildContextPacket({
      readTools,
      writeTools,
      ...input,
      authentication: { ...domain.authentication, identityTools: [...(domain.authentication.identityTools ?? [])] },
    });
}
