/** The run store every command uses unless told otherwise (kept apart: the CLI's first lines read it). */
export const DEFAULT_STORE = 'results/sqlboard.db';
