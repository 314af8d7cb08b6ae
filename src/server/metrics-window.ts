import type { Clock, MetricsWindow } from '../core/index.js';
import { HttpError } from './http-errors.js';

/** Default window of the metrics and of review samples: the last 24 hours. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The window a query asks for (`since`, `until`, ISO times), by default the 24 hours up to now; 400 when it is empty. */
export function metricsWindow(query: { since?: string; until?: string }, clock: Clock): MetricsWindow {
  const until = query.until ? new Date(query.until).toISOString() : new Date(clock.now() + 1).toISOString();
  const since = query.since ? new Date(query.since).toISOString() : new Date(Date.parse(until) - DAY_MS).toISOString();
  if (since >= until) throw new HttpError(400, 'invalid_request', 'query.since must be before query.until');
  return { since, until };
}
