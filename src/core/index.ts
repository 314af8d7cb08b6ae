/** Baton's pure core: types and schemas, the ownership state machine, log audit. */
export * from './audit-log.js';
export * from './clock.js';
export * from './commands.js';
export * from './conversation.js';
export * from './events.js';
export * from './ids.js';
export * from './message.js';
export * from './owner.js';
export * from './ownership.js';
export * from './ownership-policy.js';
export * from './outbound.js';
export * from './random.js';
export * from './transcript.js';
export * from './policy.js';
