/** Where the production task set is kept unless told: beside `baton serve`'s SQLite file, out of version control (ADR 0028). */
export const DEFAULT_TASK_SET = '.baton/production-tasks';
