export * from './job-queue.js';
export { jobQueueFor, type AnyJobQueue, type JobQueueOptions } from './job-queue-for.js';
export type { RunnerOptions } from './job-runner.js';
export { PostgresJobQueue, type PostgresJobContext, type PostgresJobQueueOptions, type SqlStatement } from './postgres-job-queue.js';
export { SqliteJobQueue, type SqliteJobContext, type SqliteJobQueueOptions } from './sqlite-job-queue.js';
