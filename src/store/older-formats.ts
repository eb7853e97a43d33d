import type { RunStore } from './run-store.js';
import { guardStore } from './store-failure.js';

/**
 * Deletes a table's rows kept under an older format, once, when a version with a newer one first
 * opens the store. Each kept result is keyed by a hash of its format number among the rest
 * (RESULT_FORMAT, EM_FORMAT, HARDNESS_FORMAT), so no later version can find them: they only made
 * every store that outlived an upgrade larger (the file keeps its size; SQLite reuses the pages).
 * The format each table was last written with is recorded in `store_formats`. A store from before
 * that record: only the rows `unreachable` names go (a condition on the table's columns that holds
 * exactly for rows no version from the record on can find). A store written by a newer version
 * is left as it is: its rows are that version's.
 */
export function dropOlderFormats(store: RunStore, table: string, format: number, unreachable?: string): void {
  guardStore(store.file, () => {
    const db = store.db;
    db.exec('CREATE TABLE IF NOT EXISTS store_formats (tbl TEXT PRIMARY KEY, format INTEGER NOT NULL)');
    const known = db.prepare<[string], { format: number }>('SELECT format FROM store_formats WHERE tbl = ?').get(table);
    if (known !== undefined && known.format >= format) return;
    db.transaction(() => {
      if (known !== undefined) db.exec(`DELETE FROM ${table}`);
      else if (unreachable !== undefined) db.exec(`DELETE FROM ${table} WHERE ${unreachable}`);
      db.prepare('INSERT OR REPLACE INTO store_formats (tbl, format) VALUES (?, ?)').run(table, format);
    })();
  });
}
