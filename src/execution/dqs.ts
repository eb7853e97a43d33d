import type Database from 'better-sqlite3';
import { applyCompat, type SqliteCompat } from './sqlite-compat.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/*
 * Double-quoted strings (DQS). The official Spider and BIRD evaluators run on Python's sqlite3,
 * a SQLite built with the default SQLITE_DQS=3: SQLite resolves each double-quoted name per
 * reference, in its own scope (subqueries, CTEs, correlated references, result aliases), as a
 * column where one is found and as a string literal where none is. better-sqlite3 compiles SQLite
 * with SQLITE_DQS=0, and prebuilt binaries may replace a build from source; but the compile option
 * only sets the default, and sqlite3_db_config(SQLITE_DBCONFIG_DQS_DML/DDL, 1) turns DQS on for a
 * connection whatever the binary. better-sqlite3 does not expose db_config; it does load
 * extensions, and native/dqs.c is one whose only work is that call, built at install
 * (binding.gyp, scripts/build-dqs.cjs). Every connection that runs a query loads it, and the
 * connection is probed before use: SQLite's own resolver then decides, exactly, rather than a
 * rewriter that imitates it.
 */

/** Text no table can make a column of: with DQS on, SQLite returns it as a string. */
const PROBE = 'sqlboard: double-quoted strings on';

/** The extension built at install, found from a file of this package (in src/, dist/src/ or dist/cli/). */
export function dqsExtensionFile(from: string): string {
  let dir = dirname(from);
  for (let i = 0; i < 6 && !isSqlboardRoot(dir); i++) dir = dirname(dir);
  // Fail closed: native code is loaded only from sqlboard's own folder, never from whatever folder the walk stopped at.
  if (!isSqlboardRoot(dir)) return join(dirname(from), 'sqlboard-package-root-not-found', 'dqs.node');
  return join(dir, 'build', 'Release', 'dqs.node');
}

function isSqlboardRoot(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'sqlboard';
  } catch {
    return false;
  }
}

/**
 * Turns double-quoted strings on for `db` with the extension `file` and checks that they are on
 * (`SELECT "<probe>"` returns the text): undefined when they are, else what went wrong.
 */
export function enableDqs(db: Database.Database, file: string): string | undefined {
  if (!existsSync(file)) return `${file} is missing`;
  try {
    // SQLite finds the entry point sqlite3_dqs_init from the file's name (dqs.node).
    db.loadExtension(file);
  } catch (e) {
    return `${file} could not be loaded (${(e as Error).message})`;
  }
  let got: unknown;
  try {
    got = db.prepare(`SELECT "${PROBE}"`).pluck().get();
  } catch (e) {
    got = (e as Error).message;
  }
  return got === PROBE ? undefined : `SELECT "${PROBE}" gave ${JSON.stringify(got)}, not the string`;
}

/** What the user reads when double-quoted strings cannot be turned on: why, and how to fix it. */
export function dqsUnavailable(reason: string): string {
  return (
    `cannot execute SQL as the official evaluators do: SQLite's double-quoted strings are not on (${reason}). ` +
    'sqlboard builds a small SQLite extension for them when it is installed, which needs a C compiler, make and ' +
    'Python 3 (node-gyp); install those, then run `npm rebuild sqlboard` (in a clone of its repository: `npm run install`)'
  );
}

/**
 * Opens a benchmark database read-only, as every query runs on it: with double-quoted strings on,
 * and limited to an older SQLite's functions under --sqlite-compat (`compat`). Throws when
 * double-quoted strings cannot be on (the parent checked before any process started, sqlite-check.ts).
 */
export function openForQueries(Db: typeof Database, path: string, extension: string, compat?: SqliteCompat): Database.Database {
  const db = new Db(path, { readonly: true, fileMustExist: true });
  try {
    const failed = enableDqs(db, extension);
    if (failed !== undefined) throw new Error(dqsUnavailable(failed));
    applyCompat(db, compat);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}
