import { UserError } from '../../errors.js';
import { miniDevPostgresType, quotePostgres } from './postgres-types.js';
import { SqliteSource, type SourceTable, type SourceValue } from './sqlite-source.js';
import { TableDigest } from './table-digest.js';

/**
 * What the loader needs of a PostgreSQL connection: PGlite's `exec` and `query` (the `pg` client can be
 * wrapped to the same shape). Kept structural so this module never loads PGlite itself.
 */
export interface PostgresTarget {
  exec(sql: string): Promise<unknown>;
  query(
    sql: string,
    params?: unknown[],
    options?: { rowMode?: 'array' | 'object'; parsers?: Record<number, (text: string, typeId: number) => unknown> },
  ): Promise<{ rows: unknown[]; fields: { name: string; dataTypeID: number }[] }>;
}

export interface LoadedTable {
  name: string;
  /** Column name -> the PostgreSQL type it was created with. */
  types: Record<string, string>;
  rows: number;
  /** TableDigest of the SQLite rows, equal to the loaded rows' (checked). */
  sha256: string;
}

export interface LoadReport {
  tables: LoadedTable[];
}

// PostgreSQL's limit on bind parameters per statement is 65,535.
const MAX_PARAMS = 60_000;
const MAX_ROWS_PER_INSERT = 1_000;

// Type OIDs whose text is read back as-is, so the check compares exact values, not a JS parser's idea of them.
const INT_OIDS = [20, 21, 23];
const FLOAT4_OID = 700;
const TEXT_OIDS = [25, 1043, 1042, 1082, 1114, 1700];

/**
 * Creates the tables of a BIRD SQLite file in PostgreSQL with mini-dev's column types and copies every row, in
 * one transaction; then reads each table back and checks its row count and digest against SQLite's. Tables of the
 * same names are replaced. A value PostgreSQL refuses (text in an integer column, an integer beyond 32 bits) is a
 * UserError naming the table; a mismatch after loading is one too.
 */
export async function loadSqliteIntoPostgres(sqlitePath: string, target: PostgresTarget): Promise<LoadReport> {
  const source = new SqliteSource(sqlitePath);
  try {
    const tables = source.tables();
    const report: LoadReport = { tables: [] };
    await target.exec('BEGIN');
    try {
      for (const table of tables) report.tables.push(await loadTable(source, table, target));
      await target.exec('COMMIT');
    } catch (e) {
      await target.exec('ROLLBACK').catch(() => undefined);
      throw e;
    }
    for (const loaded of report.tables) await check(target, loaded);
    return report;
  } finally {
    source.close();
  }
}

async function loadTable(source: SqliteSource, table: SourceTable, target: PostgresTarget): Promise<LoadedTable> {
  const types: Record<string, string> = {};
  for (const c of table.columns) types[c.name] = miniDevPostgresType(c);
  const name = quotePostgres(table.name);
  const columnList = table.columns.map((c) => quotePostgres(c.name)).join(', ');
  await target.exec(`DROP TABLE IF EXISTS ${name}`);
  await target.exec(`CREATE TABLE ${name} (${table.columns.map((c) => `${quotePostgres(c.name)} ${types[c.name]}`).join(', ')})`);
  const isFloat4 = table.columns.map((c) => types[c.name] === 'real');
  const digest = new TableDigest();
  const width = Math.max(1, table.columns.length);
  const perInsert = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMS / width)));
  let batch: SourceValue[][] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const params: unknown[] = [];
    const tuples = batch.map((row) => `(${row.map((v) => `$${params.push(toParam(v))}`).join(', ')})`);
    try {
      await target.query(`INSERT INTO ${name} (${columnList}) VALUES ${tuples.join(', ')}`, params);
    } catch (e) {
      throw new UserError(`Loading table ${table.name}: PostgreSQL refused a row (${(e as Error).message}); mini-dev's column types are ${JSON.stringify(types)}.`);
    }
    batch = [];
  };
  for (const row of source.rows(table)) {
    digest.add(row.map((v, i) => (isFloat4[i] && typeof v === 'number' ? asFloat4(v) : v)));
    batch.push(row);
    if (batch.length >= perInsert) await flush();
  }
  await flush();
  return { name: table.name, types, rows: digest.count, sha256: digest.digest() };
}

async function check(target: PostgresTarget, table: LoadedTable): Promise<void> {
  const parsers: Record<number, (text: string) => unknown> = {};
  for (const oid of INT_OIDS) parsers[oid] = (t) => BigInt(t);
  for (const oid of TEXT_OIDS) parsers[oid] = (t) => t;
  parsers[FLOAT4_OID] = (t) => asFloat4(Number(t));
  const result = await target.query(`SELECT * FROM ${quotePostgres(table.name)}`, [], { rowMode: 'array', parsers });
  const digest = new TableDigest();
  for (const row of result.rows as unknown[][]) digest.add(row);
  const sha = digest.digest();
  if (digest.count !== table.rows || sha !== table.sha256) {
    throw new UserError(
      `Table ${table.name} did not load faithfully: SQLite has ${table.rows} rows (sha256 ${table.sha256.slice(0, 16)}), PostgreSQL ${digest.count} (sha256 ${sha.slice(0, 16)}).`,
    );
  }
}

/** A double as PostgreSQL's `real` keeps it, tagged so that the digest tells it from a double. */
function asFloat4(x: number): string {
  return `float4:${String(Math.fround(x))}`;
}

function toParam(v: SourceValue): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return new Uint8Array(v);
  return v;
}
