import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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

export const DEFAULT_STORE = 'results/sqlboard.db';

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

/**
 * mkdir -p one level at a time: Node 20's recursive mkdirSync loops forever on a path it cannot
 * create under /proc (ENOENT from a directory that exists), where this fails at once.
 */
function makeDirs(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirs(parent);
  mkdirSync(dir);
}
