import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from '../src/testing/throwaway-postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection string of the test run's PostgreSQL server (throwaway unless BATON_PG_URL is set). */
    pgUrl: string;
  }
}

/** Starts one real PostgreSQL for the whole run; every test file makes its own database in it. */
export default async function setup(project: TestProject) {
  const server = await startThrowawayPostgres({ flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] });
  project.provide('pgUrl', server.url);
  return async () => {
    await server.stop();
  };
}
