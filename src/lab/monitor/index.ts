/**
 * The training monitor (docs/training-monitor.md): per training step the lab's figures of the
 * episodes a trainer played on the environment server, the loophole detector over them, and the
 * file a report is drawn from.
 */
export * from './change-point.js';
export * from './loophole-detector.js';
export * from './monitor-file.js';
export * from './monitored-episode.js';
export * from './step-figures.js';
export * from './training-monitor.js';
