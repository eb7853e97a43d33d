import Database from 'better-sqlite3';
import { UserError } from '../errors.js';

/** The run store most recently opened, so that a failure met far from it can still name it. */
let lastStore: string | undefined;

export function noteStoreFile(file: string): void {
  lastStore = file;
}

const DAMAGED = /^SQLITE_(NOTADB|CORRUPT)/;
const UNWRITABLE = /^(SQLITE_(CANTOPEN|READONLY|PERM|AUTH|IOERR)|EACCES|EPERM|EROFS|ENOTDIR|EEXIST|ENOENT)/;
const FULL = /^(SQLITE_FULL|ENOSPC|EDQUOT)/;

/**
 * The user error for a run-store failure, naming the file and the way out; undefined when `e`
 * is no such failure. Without `storeFile`, a SQLite error is taken to be the store last opened
 * (benchmark databases are only read, and in the execution processes). A damaged file, an unwritable place and a full disk are the user's to fix,
 * and every result committed before a failure stays in the store (each is its own transaction).
 */
export function storeFailure(e: unknown, storeFile?: string): UserError | undefined {
  const code = (e as { code?: unknown } | undefined)?.code;
  // Without the file, only SQLite's own errors are taken to be the last opened store's.
  const file = storeFile ?? ((e as Error).name === 'SqliteError' ? lastStore : undefined);
  if (typeof code !== 'string' || file === undefined) return undefined;
  const why = `${code}: ${(e as Error).message}`;
  if (DAMAGED.test(code)) {
    // Met far from the store (no file given): blamed on it only if it is damaged indeed. A
    // benchmark database read in this process names itself (benchmark/read-database.ts); this is
    // for any other file SQLite found damaged.
    if (storeFile === undefined && storeIsSound(file)) {
      return new UserError(`a SQLite file is damaged (${why}); the run store ${file} checks sound (PRAGMA quick_check), so it is another one: check the benchmark databases (--db-root)`);
    }
    return new UserError(`the run store ${file} is damaged or not a sqlboard store (${why}): ${damagedStoreAdvice(file)}, or give another --store`);
  }
  if (FULL.test(code)) {
    return new UserError(
      `the disk holding the run store ${file} is full (${why}): every result stored so far is kept; free space (or give another --store) and re-run the same command to resume`,
    );
  }
  if (UNWRITABLE.test(code)) {
    return new UserError(`cannot write the run store ${file} (${why}): give a --store in a writable directory`);
  }
  return undefined;
}

/** Runs a run-store operation, turning its failures into the user errors above. */
export function guardStore<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw storeFailure(e, file) ?? e;
  }
}

/**
 * What to do with a damaged store. Deleting it is advised only when it holds no LLM answer (those
 * were paid for, and a new store pays again): with answers, or when they cannot be counted (a
 * file that is no store at all may be anyone's), only moving it away.
 */
function damagedStoreAdvice(file: string): string {
  const answers = paidAnswers(file);
  if (answers === 0) return 'move it away or delete it (it holds no paid LLM answers: only cached results, which a re-run computes again)';
  const held = answers === undefined ? 'it may hold paid LLM answers that could not be counted' : `it also holds ${answers.toLocaleString('en-US')} paid LLM answer${answers === 1 ? '' : 's'}`;
  return `move it away rather than delete it (${held}; \`sqlite3 ${file} .recover\` may save what is readable)`;
}

/**
 * The paid LLM answers a store holds (those of a live provider: a replay file's cost nothing), 0
 * without the table, or undefined when they cannot be counted.
 */
function paidAnswers(file: string): number | undefined {
  return readStore(file, (db) => {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'llm_calls'").get();
    return table === undefined ? 0 : (db.prepare("SELECT count(*) AS n FROM llm_calls WHERE provider <> 'replay'").get() as { n: number }).n;
  });
}

function storeIsSound(file: string): boolean {
  return readStore(file, (db) => db.pragma('quick_check(1)', { simple: true }) === 'ok') === true;
}

/** Reads a store read-only; undefined when it cannot be read at all. */
function readStore<T>(file: string, read: (db: Database.Database) => T): T | undefined {
  if (file === ':memory:') return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    return read(db);
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}
