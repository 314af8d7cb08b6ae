/** The time source; injected so that tests and replays control it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** ISO-8601 text of a clock reading, the form every persisted timestamp takes. */
export const isoAt = (clock: Clock): string => new Date(clock.now()).toISOString();
