import type { ConversationId, EventId, IdGenerator, MessageId } from '../core/index.js';

/**
 * Ids `conv_000001`, `msg_000001`, … in creation order: a deterministic generator for tests and
 * replays of eval runs. Not unique across processes; use `createIdGenerator` there.
 */
export function sequentialIds(start = 1): IdGenerator {
  const counters = { conv: start, msg: start, evt: start };
  const next = (prefix: keyof typeof counters) => `${prefix}_${String(counters[prefix]++).padStart(6, '0')}`;
  return {
    conversation: () => next('conv') as ConversationId,
    message: () => next('msg') as MessageId,
    event: () => next('evt') as EventId,
  };
}
