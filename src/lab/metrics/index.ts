/**
 * The lab's metrics: pure functions from episode records to a run's metrics object, the
 * per-episode findings behind it (for reports), and the task-level bootstrap every interval uses.
 * Definitions and choices: `docs/metrics.md`.
 */
export * from './bootstrap.js';
export * from './compute.js';
export * from './domain-rules.js';
export * from './episode.js';
