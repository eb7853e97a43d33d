import { readDatabase } from './read-database.js';
import { InputFileError } from '../errors.js';
import { spiderSchema, type SpiderSchema } from '../sql/spider-parse.js';
import type { ForeignKeyMap } from '../sql/spider-exact.js';
import { arrayElementLines, parseJsonText, readText } from './read-json.js';

/**
 * Spider's `tables.json` as exact set match uses it: per database, the foreign-key map that sends
 * every column of a foreign-key group to the group's lowest column index (as the official
 * `build_foreign_key_map`: groups are merged in file order, names lower-cased, `__table.col__`).
 */
export function readForeignKeyMaps(file: string): Map<string, ForeignKeyMap> {
  const text = readText(file);
  const data = parseJsonText(file, text);
  if (!Array.isArray(data)) throw new InputFileError(file, undefined, 'expected a JSON array of databases (Spider tables.json)');
  const maps = new Map<string, ForeignKeyMap>();
  const entryAt = new Map<string, number>();
  const lines = arrayElementLines(text);
  data.forEach((entry: unknown, i) => {
    const e = entry as { db_id?: unknown; column_names_original?: unknown; table_names_original?: unknown; foreign_keys?: unknown };
    if (typeof e?.db_id !== 'string' || !Array.isArray(e.column_names_original) || !Array.isArray(e.table_names_original) || !Array.isArray(e.foreign_keys)) {
      throw new InputFileError(file, undefined, `entry ${i} lacks db_id, column_names_original, table_names_original or foreign_keys`);
    }
    // The official reader keeps the last entry of a db_id silently; two schemas for one database is a broken file.
    const earlier = entryAt.get(e.db_id);
    if (earlier !== undefined) throw new InputFileError(file, lines[i], `db_id ${e.db_id} has two entries (lines ${lines[earlier] ?? '?'} and ${lines[i] ?? '?'})`);
    entryAt.set(e.db_id, i);
    maps.set(e.db_id, foreignKeyMap(e.column_names_original as [number, string][], e.table_names_original as string[], e.foreign_keys as [number, number][]));
  });
  return maps;
}

function foreignKeyMap(columns: [number, string][], tables: string[], foreignKeys: [number, number][]): ForeignKeyMap {
  const ids = columns.map(([t, c]) => (t >= 0 ? `__${tables[t]!.toLowerCase()}.${c.toLowerCase()}__` : '__all__'));
  // A key pair joins the first group holding either key, else starts a new group.
  const groups: Set<number>[] = [];
  for (const [a, b] of foreignKeys) {
    let g = groups.find((s) => s.has(a) || s.has(b));
    if (!g) groups.push((g = new Set()));
    g.add(a);
    g.add(b);
  }
  const map: ForeignKeyMap = new Map();
  for (const g of groups) {
    const sorted = [...g].sort((x, y) => x - y);
    for (const k of sorted) map.set(ids[k]!, ids[sorted[0]!]!);
  }
  return map;
}

/** A database's schema as Spider's `get_schema` reads it from the SQLite file (names lower-cased). */
export function readSpiderSchema(dbFile: string): SpiderSchema {
  return readDatabase(dbFile, (db) => {
    const tables = new Map<string, string[]>();
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type='table'").pluck().all() as string[];
    for (const name of names) {
      const t = name.toLowerCase();
      const cols = db.prepare(`PRAGMA table_info("${t.replace(/"/g, '""')}")`).all() as { name: string }[];
      tables.set(t, cols.map((c) => c.name.toLowerCase()));
    }
    return spiderSchema(tables);
  });
}
