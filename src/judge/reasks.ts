/** Re-asks after an invalid answer, per stage, before an item is left unscored (--max-reasks); apart from the cascade so that judge's option table (--help) needs no judge code. */
export const DEFAULT_MAX_REASKS = 1;
