/**
 * The environment server RL trainers drive, speaking OpenEnv's protocol (../shared/OPENENV.md):
 * WebSocket `/ws` with one environment per connection (`reset`, `step`, `state`, `close` →
 * `observation`, `state`, `error`), and HTTP `/reset`, `/step`, `/state`, `/health`, `/schema`,
 * `/metadata`. As in OpenEnv, HTTP reset and step are stateless (each builds a fresh environment),
 * so multi-turn episodes go over the WebSocket. Sessions are capped (`maxSessions`; a connection
 * over the cap gets CAPACITY_REACHED and is closed) and an idle session is closed after
 * `idleTimeoutMs`. Errors the client caused (bad JSON, an unknown message type, an invalid action)
 * are answered and leave the session as it was.
 */
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clipEcho, clipEchoes } from '../core/index.js';
import { EnvActionSchema, EnvError, EnvSession, type EnvSessionOptions } from '../lab/env/session.js';

export interface EnvServerOptions {
  session: EnvSessionOptions;
  name: string;
  description: string;
  /** Sessions at once over `/ws` (OpenEnv's `max_concurrent_envs`). */
  maxSessions: number;
  /** A session with no message for this long is closed. */
  idleTimeoutMs: number;
  /**
   * The largest WebSocket frame and HTTP body accepted, in bytes (default 1 MiB). A bigger frame
   * closes its connection with code 1009 (message too big); a bigger body gets 413.
   */
  maxFrameBytes?: number;
}

/** The default of {@link EnvServerOptions.maxFrameBytes}: 1 MiB, far above any action or reset. */
export const DEFAULT_MAX_FRAME_BYTES = 1024 * 1024;

// An error quotes caller input at most MAX_ECHO_CHARS characters at a time; the whole message is
// bounded too, for messages that quote several values.
const MAX_ERROR_MESSAGE_CHARS = 2_000;

const ResetSchema = z.looseObject({
  seed: z.number().int().nonnegative().optional(),
  episode_id: z.string().max(255).optional(),
  task: z.string().optional(),
});

const MessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('reset'), data: ResetSchema.optional() }),
  z.object({ type: z.literal('step'), data: z.unknown() }),
  z.object({ type: z.literal('state') }),
  z.object({ type: z.literal('close') }),
]);

const OBSERVATION_SCHEMA = {
  type: 'object',
  description:
    'On reset: task, policy (the system prompt), tools (OpenAI function tools) and customer_message. On a step: customer_message, or tool_result {tool_call_id, name, content}, or harness_note. When done: termination, success, handed_off, reward_name, reward_components.',
  additionalProperties: true,
};

const STATE_SCHEMA = {
  type: 'object',
  properties: {
    episode_id: { type: ['string', 'null'] },
    step_count: { type: 'integer', minimum: 0 },
    task: { type: ['string', 'null'] },
    done: { type: 'boolean' },
  },
  required: ['episode_id', 'step_count'],
};

export function buildEnvServer(options: EnvServerOptions): FastifyInstance {
  const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  const app = Fastify({ logger: false, bodyLimit: maxFrameBytes });
  let active = 0;

  const errorBody = (error: unknown) => {
    const message = clipEcho(error instanceof Error ? error.message : String(error), MAX_ERROR_MESSAGE_CHARS);
    return error instanceof EnvError
      ? { message, code: error.code, ...(error.errors ? { errors: clipEchoes(error.errors) } : {}) }
      : { message, code: 'EXECUTION_ERROR' };
  };

  app.get('/health', async () => ({ status: 'healthy' }));
  app.get('/metadata', async () => ({ name: options.name, description: options.description, version: '1' }));
  app.get('/schema', async () => ({
    action: z.toJSONSchema(EnvActionSchema, { io: 'input' }),
    observation: OBSERVATION_SCHEMA,
    state: STATE_SCHEMA,
  }));
  app.get('/state', async () => new EnvSession(options.session).state());
  app.post('/reset', async (request, reply) => {
    const body = ResetSchema.safeParse(request.body ?? {});
    if (!body.success) return reply.code(422).send({ detail: clipEchoes(body.error.issues) });
    const session = new EnvSession(options.session);
    try {
      return await session.reset(body.data);
    } catch (error) {
      return reply.code(error instanceof EnvError && error.code === 'VALIDATION_ERROR' ? 422 : 500).send({ detail: errorBody(error) });
    } finally {
      session.close();
    }
  });
  app.post('/step', async (request, reply) => {
    const action = EnvActionSchema.safeParse((request.body as { action?: unknown } | null)?.action);
    if (!action.success) return reply.code(422).send({ detail: clipEchoes(action.error.issues) });
    return reply.code(409).send({
      detail: {
        message: 'HTTP /step is stateless (a fresh environment has no episode): play episodes over the WebSocket /ws',
        code: 'SESSION_ERROR',
      },
    });
  });

  void app.register(websocket, { options: { maxPayload: maxFrameBytes } });
  void app.register(async (scoped) => {
    scoped.get('/ws', { websocket: true }, (socket) => {
      const send = (message: unknown) => socket.send(JSON.stringify(message));
      if (active >= options.maxSessions) {
        send({
          type: 'error',
          data: {
            message: 'the server is at capacity',
            code: 'CAPACITY_REACHED',
            active_sessions: active,
            max_sessions: options.maxSessions,
          },
        });
        socket.close(1013, 'capacity reached');
        return;
      }
      active++;
      const session = new EnvSession(options.session);
      let idle: NodeJS.Timeout | null = null;
      const touch = () => {
        if (idle) clearTimeout(idle);
        idle = setTimeout(() => {
          send({ type: 'error', data: { message: `closed after ${options.idleTimeoutMs} ms without a message`, code: 'SESSION_ERROR' } });
          socket.close(1000, 'idle');
        }, options.idleTimeoutMs);
        idle.unref();
      };
      touch();
      // One message at a time, in order: a step waits for the one before it.
      let queue = Promise.resolve();
      socket.on('message', (raw: Buffer) => {
        touch();
        queue = queue.then(async () => {
          let message: unknown;
          try {
            message = JSON.parse(raw.toString('utf8'));
          } catch {
            return send({ type: 'error', data: { message: 'the message is not JSON', code: 'INVALID_JSON' } });
          }
          const parsed = MessageSchema.safeParse(message);
          if (!parsed.success) {
            const type = (message as { type?: unknown } | null)?.type;
            const known = ['reset', 'step', 'state', 'close'].includes(String(type));
            return send({
              type: 'error',
              data: known
                ? { message: `invalid ${String(type)} message`, code: 'VALIDATION_ERROR', errors: clipEchoes(parsed.error.issues) }
                : {
                    message: `unknown message type ${clipEcho(JSON.stringify(type) ?? 'undefined')}: use reset, step, state or close`,
                    code: 'UNKNOWN_TYPE',
                  },
            });
          }
          const m = parsed.data;
          try {
            if (m.type === 'reset') send({ type: 'observation', data: await session.reset(m.data ?? {}) });
            else if (m.type === 'step') send({ type: 'observation', data: await session.step(m.data) });
            else if (m.type === 'state') send({ type: 'state', data: session.state() });
            else socket.close(1000, 'closed by the client');
          } catch (error) {
            send({ type: 'error', data: errorBody(error) });
          }
        });
      });
      socket.on('close', () => {
        if (idle) clearTimeout(idle);
        session.close();
        active--;
      });
    });
  });
  return app;
}
