import { z } from 'zod';
import { DECIDER_REASONS, HANDOFF_TOOL, TAU2_TRANSFER_TOOL, type AgentId, type HandoffTarget, type QueueId } from '../core/index.js';
import type { ToolSpec } from '../core/index.js';
import { toolSpec } from './tool.js';

export { HANDOFF_TOOL, TAU2_TRANSFER_TOOL };

/** Reasons a model may give for handing off: the decider's, or its own judgement. */
export const MODEL_HANDOFF_REASONS = [...DECIDER_REASONS, 'agent_decision'] as const;

/** A target's text form in the tool's enum: `queue_billing`, `agent_refunds`. */
export const targetKey = (target: HandoffTarget): string => target.id;

/** The edges of the hand-off graph this agent may take. */
export interface HandoffGraph {
  queues: readonly QueueId[];
  agents: readonly AgentId[];
}

/** The `handoff {target, reason, summary}` tool's schema for one agent's edges. */
export function handoffSchema(graph: HandoffGraph) {
  const targets = [...graph.queues, ...graph.agents] as string[] as [string, ...string[]];
  if (targets.length === 0) throw new Error('an agent needs at least one hand-off target (a human queue)');
  return z.object({
    target: z.enum(targets).describe('Who takes over: a human queue, or another agent.'),
    reason: z.enum(MODEL_HANDOFF_REASONS).describe('Why the conversation is handed off.'),
    summary: z.string().min(1).max(2000).describe('What the customer needs and what has been done, for whoever takes over.'),
  });
}

export const Tau2TransferSchema = z.object({ summary: z.string().min(1).max(2000) });

/** The hand-off tools the model sees: `handoff`, and the tau2 alias when the domain uses it. */
export function handoffToolSpecs(graph: HandoffGraph, tau2Alias: boolean): ToolSpec[] {
  // The same edges give the same specs; building their JSON Schema every turn costs more than the turn.
  const key = JSON.stringify([graph.queues, graph.agents, tau2Alias]);
  const known = specsByGraph.get(key);
  if (known) return known;
  const specs = buildHandoffSpecs(graph, tau2Alias);
  if (specsByGraph.size >= 1000) specsByGraph.clear();
  specsByGraph.set(key, specs);
  return specs;
}

const specsByGraph = new Map<string, ToolSpec[]>();

function buildHandoffSpecs(graph: HandoffGraph, tau2Alias: boolean): ToolSpec[] {
  const specs = [
    toolSpec({
      name: HANDOFF_TOOL,
      description: 'Hand the conversation to a human queue or another agent. Ends your turn; no other tool runs after it.',
      schema: handoffSchema(graph),
    }),
  ];
  if (tau2Alias) {
    specs.push(
      toolSpec({
        name: TAU2_TRANSFER_TOOL,
        description: 'Transfer the user to a human agent, with a summary of the user’s issue.',
        schema: Tau2TransferSchema,
      }),
    );
  }
  return specs;
}

/** Resolves a target key from the tool's arguments to a typed target. */
export function resolveTarget(graph: HandoffGraph, key: string): HandoffTarget | null {
  if ((graph.queues as readonly string[]).includes(key)) return { type: 'queue', id: key as QueueId };
  if ((graph.agents as readonly string[]).includes(key)) return { type: 'agent', id: key as AgentId };
  return null;
}
