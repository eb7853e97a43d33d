import type { SourceColumn } from './sqlite-source.js';

/**
 * The PostgreSQL type mini-dev's own conversion gives a SQLite column, as its DDL listing of the 11 mini-dev
 * databases shows: INTEGER -> integer, TEXT -> character varying, REAL -> real, DATE -> date, DATETIME ->
 * timestamp without time zone; no keys or constraints (test/fidelity/fixtures/bird-dialects/README.md).
 * Declared types outside these (none in BIRD dev) follow SQLite's affinity rules.
 */
export function miniDevPostgresType(column: SourceColumn): string {
  const t = column.declared;
  if (t === 'DATE') return 'date';
  if (t === 'DATETIME' || t === 'TIMESTAMP') return 'timestamp without time zone';
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'character varying';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real';
  if (t === '' || t.includes('BLOB')) return 'bytea';
  return 'numeric';
}

/** A PostgreSQL identifier, quoted: keeps BIRD's mixed-case and spaced names ("NumTstTakr", "Academic Year"). */
export function quotePostgres(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
