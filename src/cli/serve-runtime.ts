import type { FastifyInstance } from 'fastify';
import {
  createIdGenerator,
  OwnershipPolicySchema,
  type AgentId,
  type Clock,
  type ConversationId,
  type Policy,
  type QueueId,
} from '../core/index.js';
import type { Domain } from '../domains/domain.js';
import { loadDomain } from '../domains/load-domain.js';
import { createRuleAgent } from '../lab/agents/index.js';
import { createOpenAiPolicy } from '../llm/openai-policy.js';
import type { AgentConfig } from '../runtime/agent-config.js';
import { createChannels, type Channels } from '../runtime/channels/channels.js';
import type { Fetch } from '../runtime/channels/post-json.js';
import { domainAgentConfig, domainHarnessTools, domainPacketBuilder } from '../runtime/domain-agent.js';
import { createGateway, type CommandOutcome } from '../runtime/gateway.js';
import { harnessDecider } from '../runtime/harness-decider.js';
import { createConversationService, type ConversationService } from '../runtime/service/conversation-service.js';
import { holdingPolicy } from '../runtime/service/holding-turn.js';
import { createRuntimeRedactor, type Redactor } from '../runtime/service/redactor.js';
import { secureRandom } from '../server/auth/secrets.js';
import { buildHttpApp, LOOPBACK_HOSTS } from '../server/http-app.js';
import type { Directory } from '../store/directory.js';
import { directoryFor, routingStoreFor, turnLeasesFor } from '../store/open-store.js';
import type { TurnLeases } from '../store/turn-leases.js';
import { listenToWrites, type WriteListener } from '../store/pg-notifications.js';
import { PostgresStore } from '../store/postgres-store.js';
import { randomBytes } from 'node:crypto';
import { queuePlans } from '../runtime/router/routing-settings.js';
import { createRuntimeRouter, type RuntimeRouter } from '../runtime/router/runtime-router.js';
import type { Store } from '../store/store.js';
import { channelStoreFor } from '../store/sql-channel-store.js';
import { resolveChannels } from './channels-config.js';
import type { ServeConfig } from './serve-config.js';

/** The model endpoint of `llm` agents, from BATON_LLM_BASE_URL, BATON_LLM_MODEL and BATON_LLM_API_KEY. */
export interface LlmEndpoint {
  baseURL: string;
  model: string;
  apiKey?: string;
}

export function llmEndpointFromEnv(env: NodeJS.ProcessEnv = process.env): LlmEndpoint | null {
  const baseURL = env['BATON_LLM_BASE_URL'];
  const model = env['BATON_LLM_MODEL'];
  if (!baseURL || !model) return null;
  return { baseURL, model, ...(env['BATON_LLM_API_KEY'] ? { apiKey: env['BATON_LLM_API_KEY'] } : {}) };
}

/** The agent that serves a domain when the configuration names none. */
export const DEFAULT_AGENT_ID = 'agent_support' as AgentId;

/** Options of {@link composeServeRuntime}. */
export interface ServeRuntimeOptions {
  store: Store;
  config: ServeConfig;
  /** `--agent`: the policy of the default agent when the configuration lists no agents. */
  agentPolicy?: 'rule' | 'llm';
  llm?: LlmEndpoint | null;
  /** Replaces an agent's policy (tests and benchmarks run a scripted one). */
  policyOverride?: (agent: AgentConfig) => Policy | null;
  clock?: Clock;
  /** Host names beside the configuration's (e.g. the address `serve` binds to). */
  extraHosts?: readonly string[];
  metricsToken?: string | null;
  logger?: Parameters<typeof buildHttpApp>[0]['logger'];
  onTurnError?: (conversationId: string, error: unknown) => void;
  /** What keeps secrets out of the store (core's redaction; tests of storage itself pass `noRedaction`). */
  redact?: Redactor;
  /** Where the channels' secrets are read from (the variables the configuration names). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** The `fetch` channels deliver with (default: the global one). */
  channelFetch?: Fetch;
  /** The lab's runs folder the console lists (null: none). */
  runsDir?: string | null;
  /** The turn leases (default: the store's table; tests wrap them to watch). */
  turnLeases?: TurnLeases;
  /** How long a turn lease lasts unless renewed (ms, default 30 s). */
  turnLeaseMs?: number;
  /**
   * Who keeps a conversation's turns one at a time: `database` (turn leases in the store, across
   * every process on it; the default on PostgreSQL, where several gateways serve one database) or
   * `process` (this process's scheduler only; the default on SQLite, the one-server store, where a
   * lease would cost two more commits a turn).
   */
  turnLeaseScope?: 'database' | 'process';
}

/** A composed runtime: the service, its HTTP app, and what they run on. */
export interface ServeRuntime {
  domain: Domain;
  service: ConversationService;
  directory: Directory;
  app: FastifyInstance;
  agents: ReadonlyMap<AgentId, AgentConfig>;
  /** The router (its sweep fires offer and wait timeouts; `baton serve` runs it from timer jobs: `startRouterTimers`). */
  router: RuntimeRouter;
  /** The configured channels (null when there are none): close them before the store. */
  channels: Channels | null;
  /** On PostgreSQL, the listener that wakes this process's readers for other processes' writes: close it before the store. */
  notifications: WriteListener | null;
}

/**
 * The one composition root of `baton serve`: the domain (its tools over one database for this
 * process), the agents of the configuration with their hand-off graph, the decider with the
 * domain's policy, the runtime service, and the HTTP app. Everything is checked before any
 * request is served: a bad configuration fails here with a message that says what to change.
 */
export async function composeServeRuntime(options: ServeRuntimeOptions): Promise<ServeRuntime> {
  const { store, config } = options;
  const clock = options.clock ?? { now: Date.now };
  const domain = await loadDomain(config.domain);
  const listed = config.agents ?? [{ id: DEFAULT_AGENT_ID, policy: options.agentPolicy ?? 'rule', handoffTo: [] as AgentId[] }];
  const llm = options.llm ?? null;
  // One database for the process: the domain's tools act on it for every conversation.
  const episode = domain.newEpisode();
  const domainTools = domainHarnessTools(domain, episode, { confirmWrites: true });
  const unknownApprovals = config.approvals.tools.filter((name) => !domainTools.some((t) => t.name === name));
  if (unknownApprovals.length > 0)
    throw new Error(
      `approvals.tools names ${unknownApprovals.join(', ')}, which the ${config.domain} domain does not have (its tools: ${domainTools.map((t) => t.name).join(', ')})`,
    );
  // Tools a supervisor approves before they run (the turn waits; the approval route resumes it).
  const tools = domainTools.map((t) =>
    config.approvals.tools.includes(t.name) ? { ...t, approval: () => `a supervisor approves ${t.name} before it runs` } : t,
  );
  const agents = new Map<AgentId, AgentConfig>();
  for (const a of listed) {
    const base = domainAgentConfig(domain, tools, { id: a.id, agents: a.handoffTo });
    agents.set(a.id, a.instructions ? { ...base, instructions: `${a.instructions}\n\n${base.instructions}` } : base);
  }
  const policies = new Map<AgentId, Policy>();
  const ruleAgents = new Set<AgentId>();
  for (const a of listed) {
    const override = options.policyOverride?.(agents.get(a.id)!) ?? null;
    if (override) policies.set(a.id, override);
    else if (a.policy === 'rule') {
      policies.set(a.id, createRuleAgent(domain));
      ruleAgents.add(a.id);
    } else if (llm)
      policies.set(a.id, createOpenAiPolicy({ baseURL: llm.baseURL, model: llm.model, ...(llm.apiKey ? { apiKey: llm.apiKey } : {}) }));
    else
      throw new Error(
        `agent ${a.id} is an llm agent and needs a model endpoint: set BATON_LLM_BASE_URL (e.g. http://localhost:8000/v1) and BATON_LLM_MODEL`,
      );
  }
  const rulesHolding = holdingPolicy();
  const ownership = OwnershipPolicySchema.parse({
    ...config.ownership,
    agentEdges: Object.fromEntries(listed.map((a) => [a.id, a.handoffTo])),
  });
  const coreGateway = createGateway({
    store,
    clock,
    ids: createIdGenerator({ now: clock.now, random: secureRandom }),
    policy: ownership,
    defaultAgent: config.defaultAgent ?? listed[0]!.id,
  });
  // Channels: their secrets from the environment, their rules on every send (src/runtime/channels/).
  const resolved = resolveChannels(config.channels, options.env ?? process.env, clock, options.channelFetch);
  const redact = options.redact ?? createRuntimeRedactor();
  const channels =
    resolved.adapters.length > 0
      ? createChannels({
          gateway: coreGateway,
          channels: channelStoreFor(store),
          adapters: resolved.adapters,
          clock,
          redact,
          ...(resolved.retry ? { retry: resolved.retry } : {}),
        })
      : null;
  const gateway = channels?.gateway ?? coreGateway;
  const directory = directoryFor(store);
  const plans = queuePlans(
    config.routing,
    domain.queues.map((q) => q.id),
  );
  const anySkills = new Map(domain.queues.map((q) => [q.id as string, q.skills]));
  const routingStore = routingStoreFor(
    store,
    {
      queues: new Map([...plans].map(([id, plan]) => [id, plan.queue])),
      weights: config.routing.weights,
      anySkills,
      ageAlertMs: config.routing.queueAgeAlertSeconds * 1000,
    },
    (kind) => `${kind === 'request' ? 'rq' : 'res'}_${randomBytes(12).toString('hex')}`,
  );
  const notFound = (id: string) => ({ ok: false as const, rejection: { code: 'not_found' as const, message: `no conversation ${id}` } });
  /**
   * A person's accepted offer, carried out on the conversation as it is now. The offer can come
   * before the hand-off that made it has put the conversation in its queue (the router offers as
   * it places, and the gateway enqueues after): a compare-and-set that lost to such a transition
   * is tried again on the new version. It is the transition that decides: a claim after someone
   * else's is refused as already claimed, not retried.
   */
  const onCurrentVersion = async (id: ConversationId, command: (version: number) => Promise<CommandOutcome>): Promise<CommandOutcome> => {
    for (let attempt = 1; ; attempt += 1) {
      const c = await store.getConversation(id);
      if (c === null) return notFound(id);
      const outcome = await command(c.version);
      if (outcome.ok || outcome.rejection.code !== 'stale' || attempt === 5) return outcome;
    }
  };
  const router = createRuntimeRouter({
    store: routingStore,
    gateway,
    directory,
    clock,
    settings: config.routing,
    plans,
    anySkills,
    // The router acts for people through the service (declared below; called only once serving), on the current version.
    act: {
      claim: (id, staff) => onCurrentVersion(id, (version) => service.claim(id, staff, version)),
      transfer: (id, staff, to) => onCurrentVersion(id, (version) => service.transfer(id, staff, { version, to })),
    },
  });
  const service = createConversationService({
    gateway,
    router,
    agents,
    policyFor: (agent) => policies.get(agent.id)!,
    // A rule agent knows its job, not how to wait: it holds with the deterministic holding policy.
    holdingPolicyFor: (agent) =>
      listed.find((a) => a.id === agent.id)?.policy === 'rule' && !options.policyOverride?.(agent) ? rulesHolding : policies.get(agent.id)!,
    decide: harnessDecider(domain.deciderPolicy),
    buildPacket: domainPacketBuilder(domain),
    clock,
    ...(options.onTurnError ? { onTurnError: options.onTurnError } : {}),
    redact,
    // Each process on a shared database takes a conversation's turn lease first: one turn at a time across them.
    ...((options.turnLeaseScope ?? (store.kind === 'postgres' ? 'database' : 'process')) === 'process' || store.kind === 'memory'
      ? {}
      : {
          turnLease: {
            leases: options.turnLeases ?? turnLeasesFor(store),
            owner: `proc_${randomBytes(12).toString('hex')}`,
            ...(options.turnLeaseMs ? { leaseMs: options.turnLeaseMs } : {}),
          },
        }),
  });
  channels?.attach(service);
  const app = await buildHttpApp({
    router,
    runsDir: options.runsDir ?? null,
    service,
    directory,
    clock,
    queues: domain.queues.map((q) => ({ id: q.id as QueueId, skills: q.skills })),
    storeKind: store.kind,
    allowedHosts: [...LOOPBACK_HOSTS, ...config.allowedHosts, ...(options.extraHosts ?? [])],
    secureCookies: config.secureCookies,
    metricsToken: options.metricsToken ?? null,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
    ...(channels ? { channels: { channels, whatsapp: resolved.whatsapp, webhooks: resolved.webhooks } } : {}),
    chat: { embedOrigins: config.chat.embedOrigins },
    labTasks: { domain: domain.name, taskSet: config.productionTasks?.dir ?? null },
  });
  // Other processes' writes wake this one's long-polls and console streams (the log stays the truth).
  const notifications =
    store instanceof PostgresStore
      ? await listenToWrites(
          store.pool.options,
          (id) => service.wakeups.notify(id as ConversationId),
          options.onTurnError ? (e) => options.onTurnError!('listener', e) : undefined,
        )
      : null;
  return { domain, service, directory, app, agents, router, channels, notifications };
}
