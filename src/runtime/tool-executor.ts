import {
  blockingConstraint,
  hasExplicitConfirmation,
  ruleVerdictText,
  type Constraint,
  type DecisionRule,
  type Findings,
  type ToolCall,
  type TranscriptItem,
} from '../core/index.js';
import type { Tool } from './tool.js';

/** Limits every tool call runs under. */
export interface SandboxLimits {
  /** A call that has not finished by then fails (ms). */
  timeoutMs: number;
  /** Longer outputs are cut, with a note saying so (characters). */
  maxOutputChars: number;
}

export const DEFAULT_SANDBOX: SandboxLimits = { timeoutMs: 10_000, maxOutputChars: 16_000 };

/** How one proposed tool call ended. Every outcome is a value the model is shown. */
export type ToolOutcome =
  | { status: 'succeeded'; output: string; args: Record<string, unknown> }
  | { status: 'failed'; output: string; args: Record<string, unknown> }
  | {
      status: 'refused';
      why: 'invalid_arguments' | 'unknown_tool' | 'needs_confirmation' | 'constraint' | 'rule' | 'declined';
      output: string;
      args: Record<string, unknown> | null;
    }
  | { status: 'needs_approval'; why: string; output: string; args: Record<string, unknown> };

export interface ExecuteOptions {
  conversationId: string;
  tools: ReadonlyMap<string, Tool>;
  /** The conversation so far (for the confirmation check). */
  transcript: readonly TranscriptItem[];
  constraints: readonly Constraint[];
  rules: readonly DecisionRule[];
  findings: Findings;
  limits: SandboxLimits;
  /** A human's decision on this very call, when the turn resumes after `needs_approval`. */
  approved?: boolean;
  /** What the person said with a rejection: the agent reads it with the refusal. */
  feedback?: string;
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null'));

function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: raw.trim() === '' ? {} : JSON.parse(raw) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}

/**
 * Runs one proposed tool call through every check, in order: known tool, arguments that parse
 * and validate, the customer's confirmation for writes that need it, hand-back constraints,
 * the domain's rules; then executes it under the sandbox limits. Nothing that fails a check runs.
 */
export async function executeToolCall(call: ToolCall, options: ExecuteOptions): Promise<ToolOutcome> {
  const tool = options.tools.get(call.name);
  if (!tool) {
    const known = [...options.tools.keys()].join(', ');
    return { status: 'refused', why: 'unknown_tool', output: `Error: unknown tool "${call.name}". Available tools: ${known}.`, args: null };
  }
  const parsed = parseArguments(call.arguments);
  if (!parsed.ok) {
    return {
      status: 'refused',
      why: 'invalid_arguments',
      output: `Error: the arguments of ${tool.name} are not valid JSON (${parsed.message}).`,
      args: null,
    };
  }
  const checked = tool.schema.safeParse(parsed.value);
  if (!checked.success) {
    const issues = checked.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
    return {
      status: 'refused',
      why: 'invalid_arguments',
      output: `Error: invalid arguments for ${tool.name}: ${issues}. The call was not executed.`,
      args: null,
    };
  }
  const args = checked.data;
  if (tool.kind === 'write' && tool.needsConfirmation && !hasExplicitConfirmation(options.transcript)) {
    return {
      status: 'refused',
      why: 'needs_confirmation',
      output: `Not executed: ${tool.name} changes the customer's account and needs their explicit confirmation. Describe the action and ask them to confirm (yes) first.`,
      args,
    };
  }
  const constraint = blockingConstraint(options.constraints, tool.name, args);
  if (constraint) {
    return {
      status: 'refused',
      why: 'constraint',
      output: `Not executed: a human who handled this conversation ruled it out: ${constraint.note}`,
      args,
    };
  }
  for (const rule of options.rules) {
    if (rule.tool !== tool.name) continue;
    const verdict = rule.evaluate(args, options.findings);
    if (verdict.decision !== 'allow') return { status: 'refused', why: 'rule', output: ruleVerdictText(rule, verdict), args };
  }
  const approval = tool.approval?.(args) ?? null;
  if (approval !== null && options.approved === undefined) {
    return { status: 'needs_approval', why: approval, output: `Waiting for a human to approve ${tool.name}: ${approval}`, args };
  }
  if (approval !== null && options.approved === false) {
    const said = options.feedback ? ` Their feedback: ${options.feedback}` : '';
    return { status: 'refused', why: 'declined', output: `Not executed: a human declined ${tool.name} (${approval}).${said}`, args };
  }
  return run(tool, call, args, options);
}

async function run(tool: Tool, call: ToolCall, args: Record<string, unknown>, options: ExecuteOptions): Promise<ToolOutcome> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${options.limits.timeoutMs} ms`));
    }, options.limits.timeoutMs);
  });
  try {
    const output = await Promise.race([
      Promise.resolve(
        tool.execute(args, {
          conversationId: options.conversationId,
          callId: call.id,
          idempotencyKey: tool.kind === 'write' ? `${options.conversationId}:${call.id}` : null,
          signal: controller.signal,
        }),
      ),
      timeout,
    ]);
    return { status: 'succeeded', output: cap(asText(output), options.limits.maxOutputChars), args };
  } catch (error) {
    return { status: 'failed', output: cap(`Error: ${(error as Error).message}`, options.limits.maxOutputChars), args };
  } finally {
    clearTimeout(timer);
  }
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[output cut at ${max} of ${text.length} characters]`;
}
