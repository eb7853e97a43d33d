import type Database from 'better-sqlite3';
import { UserError } from '../errors.js';
import { SQLITE_3_40_1_FUNCTIONS } from './sqlite-functions-3.40.1.js';

/**
 * `--sqlite-compat VERSION`: run every query as an older SQLite would see its function calls.
 * sqlboard's SQLite (better-sqlite3's) has functions the official environment's lacks (concat,
 * if, octet_length, ...; docs/sqlite.md), so a prediction that the official run rejects with "no
 * such function" can score there as right. The older SQLite's functions are a recorded list
 * (scripts/record-sqlite-functions.py, from PRAGMA function_list); every function this SQLite
 * has beyond it is refused where SQLite resolves the name while preparing the statement (the
 * extension's authorizer, native/dqs.c: exact, whatever the text around the call, strings and
 * comments included), with the older SQLite's message. Argument counts the older SQLite did not
 * take (iif with 2, json_valid with 2) fail when called, with its message.
 */
export interface SqliteCompat {
  /** The SQLite whose functions the queries get, e.g. 3.40.1. */
  version: string;
  /** Functions of this SQLite that it lacks (lower case, sorted). */
  refused: string[];
  /** Argument counts this SQLite accepts and it did not, per function it has. */
  arities: [string, number[]][];
}

/** The SQLite versions whose function lists are recorded, by the name --sqlite-compat takes. */
const RECORDED: Record<string, { version: string; functions: readonly (readonly [string, number])[] }> = {
  '3.40': { version: '3.40.1', functions: SQLITE_3_40_1_FUNCTIONS },
};

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Functions whose argument counts grew after the recorded versions (read from SQLite's release
 * notes and checked here against Python's sqlite3 3.40.1, test/sqlite-compat.test.ts): the counts
 * the newer SQLite accepts and 3.40 did not. iif: 3 only before 3.48, which takes 2 and any number
 * above 3 (the counts up to 100: better-sqlite3 defines no function of more arguments).
 * json_valid: a second argument (flags) since 3.45.
 */
const GROWN_ARITIES: Record<string, number[]> = {
  iif: [2, ...range(4, 100)],
  json_valid: [2],
};

/** The names --sqlite-compat takes. */
export const COMPAT_VERSIONS = Object.keys(RECORDED);

/** What `--sqlite-compat <requested>` refuses, given this SQLite's function names. */
export function compatFor(requested: string, current: Iterable<string>): SqliteCompat {
  const key = Object.keys(RECORDED).find((k) => requested === k || requested === RECORDED[k]!.version);
  if (key === undefined) {
    throw new UserError(
      `--sqlite-compat: no function list is recorded for SQLite ${JSON.stringify(requested)}; recorded: ${Object.entries(RECORDED).map(([k, r]) => `${k} (${r.version})`).join(', ')} (docs/sqlite.md says how to record another)`,
    );
  }
  const old = RECORDED[key]!;
  const had = new Set(old.functions.map(([name]) => name));
  const refused = [...new Set([...current].map((n) => n.toLowerCase()))].filter((n) => !had.has(n)).sort();
  const arities = Object.entries(GROWN_ARITIES).filter(([name]) => had.has(name));
  return { version: old.version, refused, arities };
}

/**
 * Sets what a query connection refuses, once, before any benchmark query runs on it. Called on
 * every such connection, with `compat` undefined too: the extension's setting can be made only
 * once per connection, so no query can make it afterwards.
 */
export function applyCompat(db: Database.Database, compat: SqliteCompat | undefined): void {
  db.prepare('SELECT sqlboard_compat(?)').get(compat ? compat.refused.join(',') : '');
  for (const [name, counts] of compat?.arities ?? []) {
    for (const n of counts) {
      const fail = (): never => {
        throw new Error(`wrong number of arguments to function ${name}()`);
      };
      Object.defineProperty(fail, 'length', { value: n });
      db.function(name, fail);
    }
  }
}

/** SQLite's message for a refused function: the older SQLite's ("no such function: NAME", as spelled). */
export function compatMessage(message: string): string {
  return message.startsWith(NOT_AUTHORIZED) ? `no such function: ${message.slice(NOT_AUTHORIZED.length)}` : message;
}

const NOT_AUTHORIZED = 'not authorized to use function: ';
