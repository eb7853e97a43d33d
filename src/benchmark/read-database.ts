import Database from 'better-sqlite3';
import { InputFileError } from '../errors.js';

/**
 * Reads a benchmark database in this process (a schema for exact match or the judge, column names
 * for the audit): opened read-only, closed after. A SQLite failure (a truncated or damaged file, a
 * file that is no database) is the user's to fix and names this file: the CLI once took every
 * SQLite error it met for the run store's and advised deleting the store (issue 30).
 */
export function readDatabase<T>(file: string, read: (db: Database.Database) => T): T {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return read(db);
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('SQLITE_')) throw e;
    const damaged = /^SQLITE_(CORRUPT|NOTADB)/.test(code);
    throw new InputFileError(
      file,
      undefined,
      `cannot read this benchmark database (${code}: ${(e as Error).message})${damaged ? ": it is damaged, cut short or not a SQLite database; restore it from the benchmark's download" : ''} (the run store is not at fault)`,
    );
  } finally {
    db?.close();
  }
}
