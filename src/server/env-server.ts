/**
 * The environment server RL trainers drive, speaking OpenEnv's protocol (../shared/OPENENV.md,
 * docs/rl.md): WebSocket `/ws` with one environment per connection (`reset`, `step`, `state`,
 * `mcp`, `close` → `observation`, `state`, `mcp`, `error`); HTTP `/reset`, `/step`, `/state`,
 * `/health`, `/schema`, `/metadata`, `/openapi.json`; and MCP (JSON-RPC 2.0) at HTTP `/mcp`, where
 * `openenv/session/create` opens a session (an episode, reset at once) that `tools/call` steps by
 * its `session_id`, as OpenEnv's production mode does. As in OpenEnv, HTTP reset and step are
 * stateless (each builds a fresh environment), so multi-turn episodes go over the WebSocket or an
 * MCP session. Sessions of both kinds are capped together (`maxSessions`; one over the cap gets
 * CAPACITY_REACHED) and an idle one is closed after `idleTimeoutMs`; each error says which
 * `baton env serve` flag to change. Errors the client caused (bad JSON, an unknown message type,
 * an invalid action) are answered and leave the session as it was.
 */
import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clipEcho, clipEchoes } from '../core/index.js';
import {
  handleRpc,
  McpActionSchema,
  mcpStep,
  mcpTools,
  RPC,
  rpcError,
  rpcResult,
  StepActionSchema,
  type McpContext,
  type RpcId,
  type RpcResponse,
} from '../lab/env/mcp.js';
import { L2ActionSchema, L3ActionSchema } from '../lab/env/review-wire.js';
import { EnvError, EnvObservationSchema, EnvStateSchema, type EnvSessionLike, type EnvSessionOptions } from '../lab/env/session.js';
import { createEnvSession } from '../lab/env/team-session.js';
import type { TrainingMonitor } from '../lab/monitor/index.js';
import { registerMonitorRoutes } from './monitor-routes.js';

export interface EnvServerOptions {
  session: EnvSessionOptions;
  name: string;
  description: string;
  /** Sessions at once, over `/ws` and MCP together (OpenEnv's `max_concurrent_envs`). */
  maxSessions: number;
  /** A session with no message for this long is closed. */
  idleTimeoutMs: number;
  /**
   * The largest WebSocket frame and HTTP body accepted, in bytes (default 1 MiB). A bigger frame
   * closes its connection with code 1009 (message too big); a bigger body gets 413.
   */
  maxFrameBytes?: number;
  /**
   * The training monitor (docs/training-monitor.md), told of every episode played over `/ws` or an
   * MCP session (stateless HTTP resets play none), with `GET /monitor`, `POST /monitor/step` and
   * `GET /metrics`; `file` is where it writes, shown in `GET /monitor`.
   */
  monitor?: { monitor: TrainingMonitor; file: string | null };
}

/** The default of {@link EnvServerOptions.maxFrameBytes}: 1 MiB, far above any action or reset. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;

/** The version of the HTTP API in the OpenAPI document (OpenEnv's validator reads `openenv-http/1.x` from it). */
export const ENV_API_VERSION = '1.0.0';

// An error quotes caller input at most MAX_ECHO_CHARS characters at a time; the whole message is
// bounded too, for messages that quote several values.
const MAX_ERROR_MESSAGE_CHARS = 2_000;

const ResetSchema = z.looseObject({
  seed: z.number().int().nonnegative().optional().describe('Picks a task (seed modulo the task count).'),
  episode_id: z.string().max(255).optional(),
  task: z.string().optional().describe('A plan key (domain/task#style#trial, or a variant) or a task id.'),
});

const StepRequestSchema = z.looseObject({
  action: StepActionSchema,
  timeout_s: z.number().positive().optional(),
  request_id: z.string().max(255).optional(),
});

const MessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reset'), data: ResetSchema.optional() }),
  z.object({ type: z.literal('step'), data: z.unknown() }),
  z.object({ type: z.literal('state') }),
  z.object({ type: z.literal('close') }),
  z.object({ type: z.literal('mcp'), data: z.unknown() }),
]);
const MESSAGE_TYPES = ['reset', 'step', 'state', 'close', 'mcp'];

const doc = (summary: string, body?: z.ZodType) => ({ schema: { summary, ...(body ? { body: jsonSchema(body) } : {}) } });

function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** The error a session over the cap gets, with the flag that raises the cap. */
function capacityError(active: number, max: number) {
  return {
    message: `the server is at capacity (${active} of ${max} sessions): close one, or start baton env serve with a higher --max-sessions`,
    code: 'CAPACITY_REACHED',
    active_sessions: active,
    max_sessions: max,
  };
}

/** The error an idle session gets as it is closed, with the flag that lengthens the wait. */
function idleError(idleTimeoutMs: number) {
  return {
    message: `closed after ${idleTimeoutMs / 1000} s without a message: start baton env serve with a longer --idle-timeout-s`,
    code: 'SESSION_ERROR',
    reason: 'idle_timeout',
    idle_timeout_s: idleTimeoutMs / 1000,
  };
}

export function buildEnvServer(options: EnvServerOptions): FastifyInstance {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const app = Fastify({ logger: false, bodyLimit: maxFrameBytes });
  // Handlers parse their input with the zod schemas the OpenAPI document is built from: one source of truth.
  app.setValidatorCompiler(() => () => true);
  let active = 0;
  // Sessions that play episodes (over /ws and MCP) report them to the monitor; stateless HTTP ones play none.
  const played: EnvSessionOptions = options.monitor ? { ...options.session, monitor: options.monitor.monitor } : options.session;
  const tools = mcpTools(options.session.domain);
  // The trainer playing L2 or L3 answers reviews: its actions are verdicts, and MCP's tools (L1's) are not its own.
  const role = options.session.hierarchy?.role ?? 'l1';
  const actionSchema = role === 'l2' ? L2ActionSchema : role === 'l3' ? L3ActionSchema : StepActionSchema;
  const mcpRefusal = `MCP serves the agent's tools; the trainer playing ${role} steps with its verdicts over /ws (see /schema)`;
  const server = { name: options.name, version: ENV_API_VERSION };

  const errorBody = (error: unknown) => {
    const message = clipEcho(error instanceof Error ? error.message : String(error), MAX_ERROR_MESSAGE_CHARS);
    return error instanceof EnvError
      ? { message, code: error.code, ...(error.errors ? { errors: clipEchoes(error.errors) } : {}) }
      : { message, code: 'EXECUTION_ERROR' };
  };

  /**
   * A timer that fires after `idleTimeoutMs` with no request in progress: it stops while a request
   * is handled (a step can take longer than the timeout, with an LLM customer) and restarts when
   * the answer is sent, so only the client's own silence counts.
   */
  const idleTimer = (onIdle: () => void) => {
    let timer: NodeJS.Timeout | null = null;
    let busy = 0;
    const stop = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const restart = () => {
      stop();
      timer = setTimeout(onIdle, options.idleTimeoutMs);
      timer.unref();
    };
    restart();
    return {
      stop,
      /** Runs one request with the timer stopped. */
      async during<T>(work: () => Promise<T>): Promise<T> {
        busy++;
        stop();
        try {
          return await work();
        } finally {
          if (--busy === 0) restart();
        }
      },
    };
  };

  // MCP sessions over HTTP (OpenEnv's production mode): an unguessable id each, capped and reaped
  // as WebSocket sessions are.
  const mcpSessions = new Map<string, { session: EnvSessionLike; idle: ReturnType<typeof idleTimer>; queue: Promise<unknown> }>();
  const closeMcpSession = (id: string) => {
    const entry = mcpSessions.get(id);
    if (!entry) return false;
    mcpSessions.delete(id);
    entry.idle.stop();
    entry.session.close();
    active--;
    return true;
  };
  const httpMcp: McpContext = {
    tools,
    server,
    step: async (params, action) => {
      if (role !== 'l1') return mcpRefusal;
      const id = params['session_id'];
      if (typeof id !== 'string')
        return 'a tools/call over HTTP needs params.session_id: call openenv/session/create first (or play over the WebSocket /ws)';
      const entry = mcpSessions.get(id);
      if (!entry) return `no session ${JSON.stringify(clipEcho(id))}: it was closed, timed out (--idle-timeout-s) or never opened`;
      // One call at a time per session, in the order they came: a step waits for the one before it.
      const run = entry.queue.then(() => entry.idle.during(() => entry.session.step(action)));
      entry.queue = run.catch(() => undefined);
      return run;
    },
    methods: {
      'openenv/session/create': async (params, rpcId) => {
        const reset = ResetSchema.safeParse(params);
        if (!reset.success) return rpcError(rpcId, RPC.INVALID_PARAMS, 'invalid reset params', clipEchoes(reset.error.issues));
        if (active >= options.maxSessions) {
          const { message, ...data } = capacityError(active, options.maxSessions);
          return rpcError(rpcId, RPC.SERVER_ERROR, message, data);
        }
        active++;
        const id = randomUUID();
        const session = createEnvSession(played);
        mcpSessions.set(id, { session, idle: idleTimer(() => closeMcpSession(id)), queue: Promise.resolve() });
        try {
          return rpcResult(rpcId, { session_id: id, ...(await session.reset(reset.data)) });
        } catch (error) {
          closeMcpSession(id);
          return rpcError(rpcId, error instanceof EnvError ? RPC.INVALID_PARAMS : RPC.SERVER_ERROR, errorBody(error).message);
        }
      },
      'openenv/session/close': async (params, rpcId) => {
        const id = params['session_id'];
        if (typeof id !== 'string') return rpcError(rpcId, RPC.INVALID_PARAMS, 'openenv/session/close needs params.session_id');
        if (!closeMcpSession(id)) return rpcError(rpcId, RPC.INVALID_PARAMS, `no session ${JSON.stringify(clipEcho(id))}`);
        return rpcResult(rpcId, { session_id: id, closed: true });
      },
    },
  };
  app.addHook('onClose', async () => {
    for (const id of [...mcpSessions.keys()]) closeMcpSession(id);
  });

  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.name, version: ENV_API_VERSION, description: options.description },
    },
  });

  // Routes are added in a plugin after the OpenAPI one, so that it sees every route.
  void app.register(async (routes) => {
    routes.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    routes.get('/health', doc('Liveness: {"status": "healthy"}'), async () => ({ status: 'healthy' }));
    routes.get('/metadata', doc('The environment: name, description, version, and the keys of its tasks (for reset)'), async () => ({
      name: options.name,
      description: options.description,
      version: ENV_API_VERSION,
      tasks: options.session.plan.map((p) => p.key),
    }));
    routes.get('/schema', doc('JSON Schemas of the action, the observation and the state'), async () => ({
      action: jsonSchema(actionSchema),
      observation: jsonSchema(EnvObservationSchema),
      state: jsonSchema(EnvStateSchema),
    }));
    routes.get('/state', doc("A fresh environment's state (HTTP is stateless; a session's state is over /ws)"), async () =>
      createEnvSession(options.session).state(),
    );
    routes.post(
      '/reset',
      doc('Reset a fresh environment (stateless: play episodes over /ws or an MCP session)', ResetSchema),
      async (request, reply) => {
        const body = ResetSchema.safeParse(request.body ?? {});
        if (!body.success) return reply.code(422).send({ detail: clipEchoes(body.error.issues) });
        const session = createEnvSession(options.session);
        try {
          return await session.reset(body.data);
        } catch (error) {
          return reply.code(error instanceof EnvError && error.code === 'VALIDATION_ERROR' ? 422 : 500).send({ detail: errorBody(error) });
        } finally {
          session.close();
        }
      },
    );
    routes.post(
      '/step',
      doc('Step a fresh environment: it has no episode, so a valid action gets 409', StepRequestSchema),
      async (request, reply) => {
        const action = StepActionSchema.safeParse((request.body as { action?: unknown } | null)?.action);
        if (!action.success) return reply.code(422).send({ detail: clipEchoes(action.error.issues) });
        return reply.code(409).send({
          detail: {
            message: 'HTTP /step is stateless (a fresh environment has no episode): play episodes over the WebSocket /ws or an MCP session',
            code: 'SESSION_ERROR',
          },
        });
      },
    );
  });

  if (options.monitor) {
    const { monitor, file } = options.monitor;
    void app.register(async (routes) => registerMonitorRoutes(routes, { monitor, file, doc }));
  }

  // MCP over HTTP: the body is read as text, so a body that is not JSON gets JSON-RPC's parse error, as OpenEnv answers.
  void app.register(async (scoped) => {
    scoped.removeAllContentTypeParsers();
    scoped.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scoped.post(
      '/mcp',
      doc('MCP (JSON-RPC 2.0): initialize, tools/list, tools/call, openenv/session/create, openenv/session/close'),
      async (request, reply) => {
        let message: unknown;
        try {
          message = JSON.parse(String(request.body ?? ''));
        } catch {
          return rpcError(null, RPC.PARSE_ERROR, 'the body is not JSON');
        }
        const response = await handleRpc(message, httpMcp);
        // A notification gets no response (MCP's Streamable HTTP: 202 Accepted, no body).
        if (response === null) return reply.code(202).send();
        return response;
      },
    );
  });

  void app.register(websocket, { options: { maxPayload: maxFrameBytes } });
  void app.register(async (scoped) => {
    scoped.get('/ws', { websocket: true, schema: { summary: 'WebSocket: one environment per connection (OpenEnv /ws)' } }, (socket) => {
      const send = (message: unknown) => socket.send(JSON.stringify(message));
      if (active >= options.maxSessions) {
        send({ type: 'error', data: capacityError(active, options.maxSessions) });
        socket.close(1013, 'capacity reached');
        return;
      }
      active++;
      const session = createEnvSession(played);
      const idle = idleTimer(() => {
        send({ type: 'error', data: idleError(options.idleTimeoutMs) });
        socket.close(1000, 'idle_timeout');
      });
      const wsMcp: McpContext = {
        tools,
        server,
        step: async (_params, action) => (role === 'l1' ? session.step(action) : mcpRefusal),
      };
      // One message at a time, in order: a step waits for the one before it.
      let queue = Promise.resolve();
      socket.on('message', (raw: Buffer) => {
        queue = queue.then(() =>
          idle.during(async () => {
            let message: unknown;
            try {
              message = JSON.parse(raw.toString('utf8'));
            } catch {
              return send({ type: 'error', data: { message: 'the message is not JSON', code: 'INVALID_JSON' } });
            }
            const parsed = MessageSchema.safeParse(message);
            if (!parsed.success) {
              const type = (message as { type?: unknown } | null)?.type;
              return send({
                type: 'error',
                data: MESSAGE_TYPES.includes(String(type))
                  ? { message: `invalid ${String(type)} message`, code: 'VALIDATION_ERROR', errors: clipEchoes(parsed.error.issues) }
                  : {
                      message: `unknown message type ${clipEcho(JSON.stringify(type) ?? 'undefined')}: use ${MESSAGE_TYPES.join(', ')}`,
                      code: 'UNKNOWN_TYPE',
                    },
              });
            }
            const m = parsed.data;
            try {
              if (m.type === 'reset') send({ type: 'observation', data: await session.reset(m.data ?? {}) });
              else if (m.type === 'step') {
                // OpenEnv's MCP actions (its MCPToolClient's list_tools / call_tool), else Baton's own.
                const mcp = role === 'l1' ? McpActionSchema.safeParse(m.data) : { success: false as const };
                const result = mcp.success ? await mcpStep(tools, mcp.data, (a) => session.step(a)) : await session.step(m.data);
                send({ type: 'observation', data: result });
              } else if (m.type === 'state') send({ type: 'state', data: session.state() });
              // As OpenEnv, every mcp message is answered (a notification with an empty result), one frame per message.
              else if (m.type === 'mcp') send({ type: 'mcp', data: (await handleRpc(m.data, wsMcp)) ?? notificationAck(m.data) });
              else socket.close(1000, 'closed by the client');
            } catch (error) {
              send({ type: 'error', data: errorBody(error) });
            }
          }),
        );
      });
      socket.on('close', () => {
        idle.stop();
        session.close();
        active--;
      });
    });
  });
  return app;
}

function notificationAck(message: unknown): RpcResponse {
  const id = (message as { id?: RpcId } | null)?.id ?? null;
  return rpcResult(id, {});
}
