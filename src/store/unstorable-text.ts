import { findUnstorableText, type UnstorableReason } from '../core/index.js';

/**
 * A write carried text that Baton does not store (a lone surrogate or NUL; see
 * `checkStorableText` and docs/decisions/0010-storable-text.md). Every adapter throws it before
 * writing anything, so the outcome is the same on memory, SQLite and PostgreSQL. It is the
 * caller's input that is wrong: the HTTP layer answers it with `400`. Its message holds no
 * caller-sent text, only where the offence is.
 */
export class UnstorableTextError extends Error {
  override readonly name = 'UnstorableTextError';
  constructor(
    /** Which argument of the write (`message`, `conversation`, `events`) and the JSON path inside it. */
    readonly path: string,
    readonly reason: UnstorableReason,
    detail: string,
  ) {
    super(`${path} ${detail}`);
  }
}

/** Throws {@link UnstorableTextError} for the first unstorable string in the named values. */
export function assertStorable(values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) {
    const found = findUnstorableText(value);
    if (found) throw new UnstorableTextError(found.path.replace(/^\$/, name), found.reason, found.message);
  }
}
