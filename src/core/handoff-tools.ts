/**
 * The names of the hand-off action, in one place: Baton's typed `handoff {target, reason,
 * summary}` and tau2-bench's `transfer_to_human_agents {summary}`, which the harness accepts as
 * an alias. The harness, the evaluator, the lab and the rewards all ask here.
 */
export const HANDOFF_TOOL = 'handoff';
export const TAU2_TRANSFER_TOOL = 'transfer_to_human_agents';

/** Every tool name that means "hand this conversation off". */
export const HANDOFF_TOOL_NAMES: ReadonlySet<string> = new Set([HANDOFF_TOOL, TAU2_TRANSFER_TOOL]);

/** Whether a tool call's name is the hand-off action (either name). */
export const isHandoffToolName = (name: string): boolean => HANDOFF_TOOL_NAMES.has(name);
