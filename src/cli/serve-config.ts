import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { AgentIdSchema, OwnershipPolicySchema } from '../core/index.js';
import { RoutingSettingsSchema } from '../runtime/router/routing-settings.js';
import { ChannelsConfigSchema } from './channels-config.js';

/** One agent of `baton serve`: its policy and its edges in the hand-off graph. */
export const ServeAgentSchema = z.strictObject({
  id: AgentIdSchema,
  /** `rule`: the offline reference agent of the domain; `llm`: the OpenAI-compatible model of BATON_LLM_*. */
  policy: z.enum(['rule', 'llm']).default('rule'),
  /** Agents this one may hand the conversation to (the explicit hand-off graph). */
  handoffTo: z.array(AgentIdSchema).max(20).default([]),
  /** Said to the model before the domain's policy (its role among the agents). */
  instructions: z.string().max(20_000).optional(),
});

/**
 * `baton.config.json`: the domain, the agents and their hand-off graph, the ownership rules and
 * what the HTTP server answers to. Every field is optional; the default is billing's rule agent.
 */
export const ServeConfigSchema = z
  .strictObject({
    domain: z.enum(['billing', 'airline', 'retail']).default('billing'),
    agents: z.array(ServeAgentSchema).min(1).max(50).optional(),
    /** The agent new conversations start with (the first agent by default). */
    defaultAgent: AgentIdSchema.optional(),
    ownership: OwnershipPolicySchema.omit({ agentEdges: true }).partial().strict().optional(),
    /** Host names the server answers to, beside localhost (DNS-rebinding protection). */
    allowedHosts: z.array(z.string().min(1).max(253)).max(50).default([]),
    /** Mark the session cookie Secure: set it when clients reach the server over HTTPS. */
    secureCookies: z.boolean().default(false),
    /** The router: queues' skills, hours, timeouts and what they offer without capacity; staff capacity (docs/router.md). */
    routing: RoutingSettingsSchema.prefault({}),
    /** High-risk actions a supervisor approves before they run: the agent's turn waits; nothing reaches the customer until then. */
    approvals: z.strictObject({ tools: z.array(z.string().min(1).max(100)).max(50).default([]) }).prefault({}),
    /** Channels besides the HTTP API: WhatsApp, signed webhooks (docs/channels.md); secrets come from the environment. */
    channels: ChannelsConfigSchema.optional(),
    /** The production task set supervisors' "Make a lab task" adds to (docs/production-tasks.md); none: the task is only returned. */
    productionTasks: z.strictObject({ dir: z.string().min(1).max(4096) }).optional(),
    /** The web chat (docs/chat.md): the origins whose pages may embed it with `<script src="…/chat/widget.js">`. */
    chat: z
      .strictObject({
        embedOrigins: z
          .array(
            z
              .string()
              .regex(
                /^https?:\/\/([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/,
                'an origin is scheme://host[:port] in lower case, with no path (e.g. "https://shop.example.com")',
              ),
          )
          .max(50)
          .default([]),
      })
      .prefault({}),
  })
  .superRefine((config, ctx) => {
    const ids = new Set<string>();
    for (const [i, agent] of (config.agents ?? []).entries()) {
      if (ids.has(agent.id)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'id'], message: `${agent.id} is listed twice` });
      ids.add(agent.id);
    }
    for (const [i, agent] of (config.agents ?? []).entries()) {
      for (const [j, to] of agent.handoffTo.entries()) {
        if (!ids.has(to))
          ctx.addIssue({ code: 'custom', path: ['agents', i, 'handoffTo', j], message: `there is no agent ${to} in agents` });
        if (to === agent.id)
          ctx.addIssue({ code: 'custom', path: ['agents', i, 'handoffTo', j], message: 'an agent cannot hand off to itself' });
      }
      if (agent.policy === 'rule' && agent.handoffTo.length > 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['agents', i, 'handoffTo'],
          message: 'the rule agent hands off to human queues only; give agent edges to an agent with "policy": "llm"',
        });
      }
    }
    if (config.defaultAgent && config.agents && !ids.has(config.defaultAgent)) {
      ctx.addIssue({ code: 'custom', path: ['defaultAgent'], message: `there is no agent ${config.defaultAgent} in agents` });
    }
  });
export type ServeConfig = z.infer<typeof ServeConfigSchema>;

/** Why a configuration file was refused: every bad field, with its path. */
export class ServeConfigError extends Error {}

/** Reads and checks a configuration file; a missing default file is the default configuration. */
export function loadServeConfig(path: string | null): ServeConfig {
  if (path === null) return ServeConfigSchema.parse({});
  if (!existsSync(path)) throw new ServeConfigError(`the configuration file ${path} does not exist`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ServeConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ServeConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(file)'}: ${i.message}`);
    throw new ServeConfigError(`${path} has ${lines.length === 1 ? 'a bad field' : `${lines.length} bad fields`}:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
