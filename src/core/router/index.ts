/** The router's pure decisions: capacity, eligibility, reservations, priorities, promises and wait estimates. */
export * from './channel-capacity.js';
export * from './choose-assignee.js';
export * from './decide-promise.js';
export * from './erlang-c.js';
export * from './gamma-quantile.js';
export * from './routing-board.js';
export * from './routing-config.js';
export * from './routing-priority.js';
export * from './routing-request.js';
export * from './wait-estimator.js';
