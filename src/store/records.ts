import { RECORD_EVENT_TYPES, type NewEvent } from '../core/index.js';

/** Refuses, as a bug, an attempt to append a message or a transition without its checks. */
export function assertRecords(entries: readonly NewEvent[]): void {
  const bad = entries.find((e) => !(RECORD_EVENT_TYPES as readonly string[]).includes(e.type));
  if (bad) throw new Error(`appendRecords takes ${RECORD_EVENT_TYPES.join(', ')}; got ${bad.type}`);
}
