import type { DialectRun } from './dialect-compare.js';
import { pythonValueOf, TEXT_PARSED_OIDS, type PythonValue } from './postgres-python-values.js';

/** What the runner needs of PGlite (or a wrapped `pg` client): its simple-query `exec`. */
export interface SimpleQueryTarget {
  exec(
    sql: string,
    options?: { rowMode?: 'array' | 'object'; parsers?: Record<number, (text: string, typeId: number) => unknown> },
  ): Promise<{ rows: unknown[]; fields: { name: string; dataTypeID: number }[] }[]>;
}

export type PostgresRun = DialectRun;

const RAW_TEXT: Record<number, (text: string) => string> = Object.fromEntries(TEXT_PARSED_OIDS.map((oid) => [oid, (t: string) => t]));

/**
 * Runs SQL text as psycopg2's `cursor.execute(sql); cursor.fetchall()` does: the whole text as one simple query
 * (several statements run in order; the last one's rows are returned), "can't execute an empty query" for blank
 * text, "no results to fetch" when the last statement returns no rows description (UPDATE, SET, DDL). Values are
 * converted from PostgreSQL's text as psycopg2 converts them (pythonValueOf). No read-only guard here: the caller
 * gives a target that cannot write.
 */
export async function runLikePsycopg2(target: SimpleQueryTarget, sql: string): Promise<PostgresRun> {
  if (sql.trim() === '') return { status: 'error', error: "can't execute an empty query" };
  let results;
  try {
    results = await target.exec(sql, { rowMode: 'array', parsers: RAW_TEXT });
  } catch (e) {
    return { status: 'error', error: (e as Error).message };
  }
  const last = results[results.length - 1];
  if (!last || last.fields.length === 0) return { status: 'error', error: 'no results to fetch' };
  const oids = last.fields.map((f) => f.dataTypeID);
  const rows = (last.rows as unknown[][]).map((row) => row.map((cell, i) => toPython(cell, oids[i]!)));
  return { status: 'ok', columns: last.fields.map((f) => f.name), rows };
}

/** A cell as the text parsers left it; a type without one (arrays, ranges...) arrives parsed by PGlite's default. */
function toPython(cell: unknown, oid: number): PythonValue {
  if (cell === null || typeof cell === 'string') return pythonValueOf(cell, oid);
  // psycopg2 makes every PostgreSQL array a list, which Python cannot hash.
  if (Array.isArray(cell)) return { unhashable: 'list' };
  return { other: String(oid), text: JSON.stringify(cell) ?? String(cell) };
}
