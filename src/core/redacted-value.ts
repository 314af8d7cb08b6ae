/**
 * What a secret-named tool argument (a one-time code, a card number, a password) is stored as:
 * the value itself is never kept. Analyses of stored records treat it as unknown, never as wrong.
 */
export const REDACTED_VALUE = '[redacted]';

/** Whether a stored value is one redaction replaced, so nothing can be judged from it. */
export const isRedactedValue = (value: unknown): boolean => value === REDACTED_VALUE;
