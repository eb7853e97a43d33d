import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

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
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 10000');
  return {
    file,
    db,
    close: () => {
      if (db.open) db.close();
    },
  };
}
