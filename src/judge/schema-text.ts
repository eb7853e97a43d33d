import type Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { readInputBytes } from '../benchmark/input-file.js';
import { readDatabase } from '../benchmark/read-database.js';
import { join } from 'node:path';
import { parseCsvRows } from '../benchmark/csv-rows.js';
import { databaseFile } from '../execution/engine.js';

export interface SchemaTextOptions {
  /** Distinct non-NULL sample values shown per column (default 3). */
  samplesPerColumn?: number;
  /** Characters kept per sample value (default 40). */
  maxSampleChars?: number;
  /** A directory holding `<table>.csv` column descriptions (BIRD's database_description/). */
  descriptionDir?: string;
}

/**
 * The schema as the judge sees it: each table's CREATE statement, then a few
 * sample values per column, then BIRD's column descriptions when present.
 * Read-only; the order is sqlite_master's, so the text is deterministic.
 */
export function schemaText(dbFile: string, opts: SchemaTextOptions = {}): string {
  return readDatabase(dbFile, (db) => {
    const tables = db
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
      .all() as { name: string; sql: string | null }[];
    const descriptions = opts.descriptionDir ? readDescriptions(opts.descriptionDir, tables.map((t) => t.name)) : new Map<string, string[]>();
    const blocks: string[] = [];
    for (const t of tables) {
      const lines = [`${(t.sql ?? `CREATE TABLE ${quoteId(t.name)} (...)`).trim()};`];
      const samples = sampleValues(db, t.name, opts.samplesPerColumn ?? 3, opts.maxSampleChars ?? 40);
      if (samples.length > 0) lines.push(`-- Sample values of ${t.name}:`, ...samples.map((s) => `--   ${s}`));
      const desc = descriptions.get(t.name.toLowerCase());
      if (desc && desc.length > 0) lines.push(`-- Column descriptions of ${t.name}:`, ...desc.map((d) => `--   ${d}`));
      blocks.push(lines.join('\n'));
    }
    return blocks.join('\n\n');
  });
}

function quoteId(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function sampleValues(db: Database.Database, table: string, k: number, maxChars: number): string[] {
  if (k <= 0) return [];
  const cols = db.prepare(`PRAGMA table_info(${quoteId(table)})`).all() as { name: string }[];
  const out: string[] = [];
  for (const c of cols) {
    let vals: unknown[];
    try {
      // Only the first 10,000 rows are looked at, so a mostly-NULL column of a
      // huge BIRD table costs no full scan; scan order makes it deterministic.
      const col = quoteId(c.name);
      vals = db
        .prepare(`SELECT DISTINCT v FROM (SELECT ${col} AS v FROM ${quoteId(table)} LIMIT 10000) WHERE v IS NOT NULL LIMIT ${k}`)
        .raw()
        .all()
        .map((r) => (r as unknown[])[0]);
    } catch {
      continue; // a view-like or corrupt table: the CREATE statement is still shown
    }
    if (vals.length === 0) continue;
    out.push(`${c.name}: ${vals.map((v) => formatSample(v, maxChars)).join(', ')}`);
  }
  return out;
}

function formatSample(v: unknown, maxChars: number): string {
  if (typeof v === 'string') {
    const s = v.replace(/\s+/g, ' ');
    return JSON.stringify(s.length > maxChars ? s.slice(0, maxChars) + '…' : s);
  }
  if (v instanceof Uint8Array) return `<blob ${v.byteLength} bytes>`;
  return String(v);
}

/**
 * BIRD's database_description/<table>.csv: original_column_name, column_name,
 * column_description, data_format, value_description. Some files are not
 * UTF-8 (cp1252); a lenient parse keeps whatever rows are readable.
 */
export function readDescriptions(dir: string, tables: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!existsSync(dir)) return out;
  const files = new Map(readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.csv')).map((f) => [f.slice(0, -4).toLowerCase(), f]));
  for (const t of tables) {
    const f = files.get(t.toLowerCase());
    if (!f) continue;
    const buf = readInputBytes(join(dir, f));
    const text = isUtf8(buf) ? buf.toString('utf8') : buf.toString('latin1');
    let rows: string[][];
    try {
      // BIRD's description files have stray quotes in free text (csv-parse's relax_quotes before).
      rows = parseCsvRows(text, { lenientQuotes: true, extraCells: true }).map((r) => r.cells);
    } catch {
      continue;
    }
    const lines: string[] = [];
    for (const r of rows.slice(1)) {
      const [orig, name, desc, , values] = r.map((x) => (x ?? '').replace(/\s+/g, ' ').trim());
      if (!orig) continue;
      const parts = [name && name.toLowerCase() !== orig.toLowerCase() ? `(${name})` : '', desc && desc.toLowerCase() !== orig.toLowerCase() ? desc : '', values ? `values: ${values}` : '']
        .filter((p) => p !== '')
        .join('; ');
      if (parts) lines.push(`${orig}: ${parts.length > 300 ? parts.slice(0, 300) + '…' : parts}`);
    }
    out.set(t.toLowerCase(), lines);
  }
  return out;
}

function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}

/**
 * Schema text per database id, computed once per id. Descriptions come from
 * `<descriptionsRoot>/<db>/` when given, else from BIRD's own layout
 * `<dbRoot>/<db>/database_description/` when it exists.
 */
export function createSchemaSource(dbRoot: string, descriptionsRoot?: string, opts: Omit<SchemaTextOptions, 'descriptionDir'> = {}): (dbId: string) => string {
  const memo = new Map<string, string>();
  return (dbId: string): string => {
    let s = memo.get(dbId);
    if (s === undefined) {
      const own = join(dbRoot, dbId, 'database_description');
      const descriptionDir = descriptionsRoot ? join(descriptionsRoot, dbId) : existsSync(own) ? own : undefined;
      s = schemaText(databaseFile(dbRoot, dbId), { ...opts, descriptionDir });
      memo.set(dbId, s);
    }
    return s;
  };
}
