import type { RunStore } from './run-store.js';
import { guardStore } from './store-failure.js';

/** What a table held before `store_formats` recorded it. */
export interface Unrecorded {
  /** The format its rows were kept under: the one current when the record came in. */
  format: number;
  /** A condition on the table's columns that holds exactly for rows kept under a format before that one. */
  unreachable?: string;
}

/**
 * Deletes a table's rows kept under an older format, once, when a version with a newer one first
 * opens the store. Each kept result is keyed by a hash of its format number among the rest
 * (RESULT_FORMAT, EM_FORMAT, HARDNESS_FORMAT), so no later version can find them: they only made
 * every store that outlived an upgrade larger (the file keeps its size; SQLite reuses the pages).
 * `store_formats` records the newest format each table was written with; a store from before that
 * record is taken to hold `before.format` once the rows `before.unreachable` names are gone. A store
 * a newer version wrote is left as it is (and the record never goes down): its rows are that
 * version's. `table` and `before.unreachable` are written into the SQL: constants of this program,
 * never anything a user gave.
 */
export function dropOlderFormats(store: RunStore, table: string, format: number, before: Unrecorded): void {
  guardStore(store.file, () => {
    const db = store.db;
    db.exec('CREATE TABLE IF NOT EXISTS store_formats (tbl TEXT PRIMARY KEY, format INTEGER NOT NULL)');
    const read = db.prepare<[string], { format: number }>('SELECT format FROM store_formats WHERE tbl = ?');
    // The usual case, one read: the store is this version's already.
    const known = read.get(table);
    if (known !== undefined && known.format >= format) return;
    // Read again and decided under the write lock: another run opening the store meanwhile (of
    // another version, maybe) must not have its record overwritten by a lower one.
    db.transaction(() => {
      let was = read.get(table)?.format;
      if (was === undefined) {
        if (before.unreachable !== undefined) db.exec(`DELETE FROM ${table} WHERE ${before.unreachable}`);
        was = before.format;
      }
      if (was < format) db.exec(`DELETE FROM ${table}`);
      db.prepare('INSERT INTO store_formats (tbl, format) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET format = max(format, excluded.format)').run(table, format);
    }).immediate();
  });
}
