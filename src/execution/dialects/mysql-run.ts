import type { DialectRun } from './dialect-compare.js';
import { pymysqlValueOf, type MysqlColumn } from './mysql-python-values.js';

/** What the runner needs of a mysql2 (promise) connection: `query` with raw cells and array rows. */
export interface MysqlQueryTarget {
  query(options: {
    sql: string;
    rowsAsArray: true;
    typeCast: (field: { buffer(): Buffer | null }, next: () => unknown) => unknown;
  }): Promise<[unknown, (MysqlColumn & { name: string })[] | undefined]>;
}

export type MysqlRun = DialectRun;

/**
 * Runs SQL text as PyMySQL's `cursor.execute(sql); cursor.fetchall()` does: the text protocol, one statement (the
 * connection must not enable multipleStatements: PyMySQL does not set CLIENT.MULTI_STATEMENTS, so a second
 * statement is the server's syntax error), and a statement that returns no result set gives no rows, not an error.
 * Values are converted from the server's bytes as PyMySQL converts them. No read-only guard here: the caller gives
 * a connection that cannot write.
 */
export async function runLikePyMySQL(target: MysqlQueryTarget, sql: string): Promise<MysqlRun> {
  let rows: unknown;
  let fields: (MysqlColumn & { name: string })[] | undefined;
  try {
    [rows, fields] = await target.query({ sql, rowsAsArray: true, typeCast: (field) => field.buffer() });
  } catch (e) {
    return { status: 'error', error: (e as Error).message };
  }
  if (!Array.isArray(rows) || !fields) return { status: 'ok', columns: [], rows: [] };
  const columns = fields;
  return {
    status: 'ok',
    columns: columns.map((f) => f.name),
    rows: (rows as (Buffer | null)[][]).map((row) => row.map((cell, i) => pymysqlValueOf(cell, columns[i]!))),
  };
}
