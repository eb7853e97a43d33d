import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { makeDirs } from '../benchmark/write-file.js';
import { guardStore, noteStoreFile } from './store-failure.js';

/**
 * The one SQLite run store (default results/sqlboard.db). Each module that keeps
 * state here creates its own tables with CREATE TABLE IF NOT EXISTS on first use,
 * so the store needs no central schema. WAL + synchronous=NORMAL: every committed
 * row survives a SIGKILL of the process, which is what makes runs resumable.
 */
export interface RunStore {
  readonly file: string;
  readonly db: Database.Database;
  close(): void;
}

export { DEFAULT_STORE } from './default-store.js';
import { DEFAULT_STORE } from './default-store.js';

export function openRunStore(file: string = DEFAULT_STORE): RunStore {
  noteStoreFile(file);
  // Opened and read at once, so that a damaged or unwritable store is reported before any work.
  const db = guardStore(file, () => {
    if (file !== ':memory:') makeDirs(dirname(file));
    const opened = new Database(file);
    try {
      opened.pragma('journal_mode = WAL');
      opened.pragma('synchronous = NORMAL');
      opened.pragma('busy_timeout = 10000');
      opened.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (e) {
      opened.close();
      throw e;
    }
    return opened;
  });
  return {
    file,
    db,
    close: () => {
      if (db.open) db.close();
    },
  };
}
