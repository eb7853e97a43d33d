/** One result cell as better-sqlite3 returns it (BIGINT when it is out of a double's exact range). */
export type Cell = null | number | bigint | string | Uint8Array;
