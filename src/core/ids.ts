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
  /**
   * Uniform in [0, 1); 16 base-32 characters (80 bits) are drawn afresh for every id. In
   * production this must be a cryptographic source (`secureRandom` in the runtime): ids are
   * unguessable only as long as their random part is.
   */
  random: () => number;
}

/** Ids one generator may make within one millisecond and still sort in creation order. */
const PER_MS = 32 ** 3;

/**
 * Time-sortable, unguessable ids: 10 characters of millisecond time, 3 of a counter within that
 * millisecond (so ids from one generator sort in creation order), then 16 random characters
 * (80 bits) redrawn for every id. Knowing one id tells nothing about the next one's random part.
 */
export function createIdGenerator(options: IdGeneratorOptions): IdGenerator {
  let lastTime = -1;
  let counter = 0;
  const next = (prefix: string): string => {
    let now = Math.max(options.now(), lastTime);
    if (now === lastTime) {
      counter += 1;
      // More than PER_MS ids in one millisecond: borrow the next millisecond rather than wrap.
      if (counter >= PER_MS) {
        now += 1;
        counter = 0;
      }
    } else counter = 0;
    lastTime = now;
    let random = '';
    for (let i = 0; i < 16; i += 1) random += CROCKFORD[Math.floor(options.random() * 32) % 32];
    const seq = CROCKFORD[(counter >> 10) & 31]! + CROCKFORD[(counter >> 5) & 31]! + CROCKFORD[counter & 31]!;
    return `${prefix}_${encodeTime(now)}${seq}${random}`;
  };
  return {
    conversation: () => next(ID_PREFIXES.conversation) as ConversationId,
    message: () => next(ID_PREFIXES.message) as MessageId,
    event: () => next(ID_PREFIXES.event) as EventId,
  };
}
