import Database from 'better-sqlite3';
import { UserError } from '../../errors.js';

/** A column as SQLite declares it. */
export interface SourceColumn {
  name: string;
  /** The declared type, upper case ("INTEGER", "TEXT", "REAL", "DATE", ...; "" when none). */
  declared: string;
}

export interface SourceTable {
  name: string;
  columns: SourceColumn[];
}

/** A SQLite value as better-sqlite3 returns it with safe integers on (integers stay exact). */
export type SourceValue = null | bigint | number | string | Buffer;

/** A BIRD SQLite file opened read-only: its tables in creation order and their rows. */
export class SqliteSource {
  private readonly db: Database.Database;

  constructor(path: string) {
    try {
      this.db = new Database(path, { readonly: true, fileMustExist: true });
      this.db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get();
    } catch (e) {
      throw new UserError(`${path} is not a readable SQLite database (${(e as Error).message}): give the path of a BIRD <db_id>.sqlite file.`);
    }
  }

  tables(): SourceTable[] {
    const names = this.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
      .pluck()
      .all() as string[];
    return names.map((name) => ({
      name,
      columns: (this.db.prepare(`PRAGMA table_info(${quoteSqlite(name)})`).all() as { name: string; type: string }[]).map(
        (c) => ({ name: c.name, declared: c.type.trim().toUpperCase() }),
      ),
    }));
  }

  /** Every row of a table, in rowid order, values exact (bigint for integers). */
  *rows(table: SourceTable): Generator<SourceValue[]> {
    const stmt = this.db.prepare(`SELECT * FROM ${quoteSqlite(table.name)}`).raw(true).safeIntegers(true);
    yield* stmt.iterate() as Iterable<SourceValue[]>;
  }

  close(): void {
    this.db.close();
  }
}

function quoteSqlite(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
