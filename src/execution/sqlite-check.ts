import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';
import { dqsExtensionFile, dqsUnavailable, enableDqs } from './dqs.js';
import { compatFor, type SqliteCompat } from './sqlite-compat.js';

/** The SQLite that decides a run's verdicts, as the provenance states it. */
export interface SqliteInUse {
  /** sqlite_version() of the SQLite better-sqlite3 links. */
  version: string;
  /** PRAGMA compile_options (SQLITE_DQS=0 among them: the extension turns double-quoted strings on at run time). */
  compileOptions: string[];
  /** Double-quoted names resolve as in a default build (column if in scope, else string): always, or no query runs. */
  doubleQuotedStrings: true;
  /** --sqlite-compat: the older SQLite whose functions every query was limited to. */
  compat?: string;
}

let checked: { version: string; compileOptions: string[]; functions: string[] } | undefined;

/**
 * Checks once per process, before any query runs, that this installation's SQLite reads
 * double-quoted strings as the official evaluators' does (dqs.ts), on an in-memory connection: a
 * binary or installation without them stops the run with a UserError saying how to fix it, and
 * never scores. Reads the SQLite's version, compile options and functions on the way.
 */
function check(): NonNullable<typeof checked> {
  if (checked) return checked;
  const db = new Database(':memory:');
  try {
    const failed = enableDqs(db, dqsExtensionFile(fileURLToPath(import.meta.url)));
    if (failed !== undefined) throw new UserError(dqsUnavailable(failed));
    checked = {
      version: db.prepare('SELECT sqlite_version()').pluck().get() as string,
      compileOptions: db.prepare('SELECT compile_options FROM pragma_compile_options').pluck().all() as string[],
      functions: db.prepare('SELECT DISTINCT name FROM pragma_function_list').pluck().all() as string[],
    };
  } finally {
    db.close();
  }
  return checked;
}

/** Throws the UserError of check() when double-quoted strings cannot be turned on. */
export function assertDqs(): void {
  check();
}

/** The SQLite queries run on, and what --sqlite-compat `requested` (if given) refuses of it. */
export function sqliteInUse(requested?: string): { sqlite: SqliteInUse; compat?: SqliteCompat } {
  const { version, compileOptions, functions } = check();
  const compat = requested === undefined ? undefined : compatFor(requested, functions);
  return {
    sqlite: { version, compileOptions, doubleQuotedStrings: true, ...(compat ? { compat: compat.version } : {}) },
    ...(compat ? { compat } : {}),
  };
}
