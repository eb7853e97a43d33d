/** The byte budget of one query's result (--max-result-bytes), by default and at most. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 2 ** 20;
/**
 * The largest byte budget allowed. Up to 80,000,000 any result that passes the budget fits the run
 * store (its JSON spends at most 6 characters per counted byte: below V8's longest string, 2^29 − 24
 * characters, and SQLite's largest value, 10^9 bytes). Above it, so that the official scripts'
 * numbers can be reproduced where they have no limit (3.4-million-row results on Spider dev), a
 * result whose JSON cannot be a string is that item's error, and one SQLite cannot hold is simply
 * not kept (a re-run executes it again): neither stops the run.
 */
export const MAX_RESULT_BYTES = 256_000_000;
