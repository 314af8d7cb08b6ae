import { z } from 'zod';
import type { ToolSpec } from '../core/index.js';

/** What a tool's execution can see besides its arguments. */
export interface ToolContext {
  conversationId: string;
  /** The model's id of this call (for records that pair a call with what it did). */
  callId: string;
  /** Set for writes: the same call retried carries the same key, so it takes effect once. */
  idempotencyKey: string | null;
  /** Aborted when the call's time limit passes. */
  signal: AbortSignal;
}

/**
 * A tool the agent may call. Arguments are validated by `schema` before `execute` ever runs;
 * the model sees `z.toJSONSchema(schema)`. Outputs are data for the model, never instructions.
 */
export interface Tool<A = Record<string, unknown>> {
  name: string;
  description: string;
  kind: 'read' | 'write';
  schema: z.ZodType<A>;
  /** The customer must have said yes to this write in their latest turn (see `hasExplicitConfirmation`). */
  needsConfirmation?: boolean;
  /**
   * Whether this call needs a human's approval before it runs (null: it does not). When it does,
   * the turn ends with `needs_approval`, and resumes with the human's decision.
   */
  approval?: (args: A) => string | null;
  /** Returns the output the model sees (objects are sent as JSON). Throwing counts as a failed call. */
  execute(args: A, context: ToolContext): Promise<unknown> | unknown;
}

/** Defines a tool with its argument type inferred from its schema. */
export function defineTool<S extends z.ZodType<Record<string, unknown>>>(tool: Omit<Tool<z.infer<S>>, 'schema'> & { schema: S }): Tool {
  return tool as unknown as Tool;
}

/** The tool as a model sees it. */
export function toolSpec(tool: Pick<Tool, 'name' | 'description' | 'schema'>): ToolSpec {
  // A schema's JSON Schema never changes: computed once per schema, not once per turn.
  let parameters = parametersOf.get(tool.schema);
  if (!parameters) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown>;
    parameters = rest;
    parametersOf.set(tool.schema, parameters);
  }
  return { name: tool.name, description: tool.description, parameters };
}

const parametersOf = new WeakMap<object, Record<string, unknown>>();
