import { z } from 'zod';

/**
 * Branded, prefixed identifiers. A branded string cannot be passed where another kind of id is
 * expected, and the prefix makes an id readable in logs (`conv_…`, `msg_…`, `evt_…`).
 */
export const ID_PREFIXES = {
  conversation: 'conv',
  message: 'msg',
  event: 'evt',
  agent: 'agent',
  queue: 'queue',
  staff: 'staff',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const idSchema = <K extends IdKind>(kind: K) =>
  z
    .string()
    .regex(new RegExp(`^${ID_PREFIXES[kind]}_[A-Za-z0-9_-]{1,120}$`), {
      message: `expected an id of the form ${ID_PREFIXES[kind]}_…`,
    })
    .brand<K>();

export const ConversationIdSchema = idSchema('conversation');
export type ConversationId = z.infer<typeof ConversationIdSchema>;
export const MessageIdSchema = idSchema('message');
export type MessageId = z.infer<typeof MessageIdSchema>;
export const EventIdSchema = idSchema('event');
export type EventId = z.infer<typeof EventIdSchema>;
export const AgentIdSchema = idSchema('agent');
export type AgentId = z.infer<typeof AgentIdSchema>;
export const QueueIdSchema = idSchema('queue');
export type QueueId = z.infer<typeof QueueIdSchema>;
export const StaffIdSchema = idSchema('staff');
export type StaffId = z.infer<typeof StaffIdSchema>;

/** Generates ids; injected everywhere so that tests and eval replays are deterministic. */
export interface IdGenerator {
  conversation(): ConversationId;
  message(): MessageId;
  event(): EventId;
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let rest = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i += 1) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** Options of {@link createIdGenerator}. */
export interface IdGeneratorOptions {
  /** Milliseconds since the epoch; ids sort by this first. */
  now: () => number;
  /** Uniform in [0, 1); 16 base-32 characters (80 bits) are drawn per id. */
  random: () => number;
}

/**
 * Time-sortable ids in the spirit of ULID: 10 characters of millisecond time, then 16 random
 * characters. Within one millisecond ids from one generator still sort in creation order,
 * because the random part is incremented rather than redrawn.
 */
export function createIdGenerator(options: IdGeneratorOptions): IdGenerator {
  let lastTime = -1;
  let lastRandom: number[] = [];
  const next = (prefix: string): string => {
    const now = options.now();
    if (now === lastTime) {
      for (let i = lastRandom.length - 1; i >= 0; i -= 1) {
        const digit = (lastRandom[i] ?? 0) + 1;
        if (digit < 32) {
          lastRandom[i] = digit;
          break;
        }
        lastRandom[i] = 0;
      }
    } else {
      lastTime = now;
      lastRandom = Array.from({ length: 16 }, () => Math.floor(options.random() * 32) % 32);
    }
    return `${prefix}_${encodeTime(now)}${lastRandom.map((d) => CROCKFORD[d]).join('')}`;
  };
  return {
    conversation: () => next(ID_PREFIXES.conversation) as ConversationId,
    message: () => next(ID_PREFIXES.message) as MessageId,
    event: () => next(ID_PREFIXES.event) as EventId,
  };
}
