import type { Policy, PolicyFailure, PolicyRequest, PolicyResponse, TokenUsage, ToolCall } from '../core/index.js';

/** One scripted proposal: a reply, tool calls (with optional text), or a provider failure. */
export type ScriptedStep =
  | { reply: string }
  | { toolCalls: Array<{ name: string; arguments: Record<string, unknown> | string }>; content?: string }
  | { fail: PolicyFailure['kind']; message?: string }
  /** Decides from the request (e.g. the last tool result) which step to give. */
  | ((request: PolicyRequest) => ScriptedStep);

export interface ScriptedPolicyOptions {
  name?: string;
  /** Tokens each response reports. */
  usage?: TokenUsage;
  /** When the script runs out: fail (default; a test that asks too often is a bug) or repeat the last step. */
  whenExhausted?: 'fail' | 'repeat_last';
}

/**
 * A policy that plays a fixed script: a test double, honest about being one, and a real module
 * that the lab uses where no model can run. It records every request it was given.
 */
export function scriptedPolicy(
  steps: readonly ScriptedStep[],
  options: ScriptedPolicyOptions = {},
): Policy & { requests: PolicyRequest[] } {
  const requests: PolicyRequest[] = [];
  const usage = options.usage ?? { promptTokens: 10, completionTokens: 5 };
  let index = 0;
  let callId = 0;
  const resolve = (step: ScriptedStep, request: PolicyRequest): Exclude<ScriptedStep, (r: PolicyRequest) => ScriptedStep> =>
    typeof step === 'function' ? resolve(step(request), request) : step;
  return {
    name: options.name ?? 'scripted',
    requests,
    async next(request: PolicyRequest): Promise<PolicyResponse> {
      requests.push(request);
      if (request.signal?.aborted) return { ok: false, failure: { kind: 'aborted', message: 'aborted before the request' } };
      let raw = steps[index];
      if (raw === undefined) {
        if (options.whenExhausted !== 'repeat_last' || steps.length === 0) {
          return { ok: false, failure: { kind: 'exhausted', message: `the script has only ${steps.length} steps` } };
        }
        raw = steps[steps.length - 1]!;
      } else {
        index += 1;
      }
      const step = resolve(raw, request);
      if ('fail' in step) return { ok: false, failure: { kind: step.fail, message: step.message ?? `scripted ${step.fail}` } };
      if ('reply' in step) return { ok: true, content: step.reply, toolCalls: [], usage };
      const toolCalls: ToolCall[] = step.toolCalls.map((c) => ({
        id: `call_${(callId += 1)}`,
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      }));
      return { ok: true, content: step.content ?? null, toolCalls, usage };
    },
  };
}
