/**
 * The lab's metrics: pure functions from episode records to a run's metrics object, the
 * per-episode findings behind it (for reports), and the task-level bootstrap every interval uses.
 * Definitions and choices: `docs/metrics.md`. The per-episode analysis lives below the lab
 * (`src/analysis/`), where the rewards read it too; it is re-exported here for the lab's readers.
 */
export * from './bootstrap.js';
export * from './compute.js';
export * from '../../analysis/domain-rules.js';
export * from '../../analysis/episode-analysis.js';
export * from './infrastructure.js';
export * from './metric-catalog.js';
