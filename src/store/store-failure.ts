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
    return new UserError(
      `the run store ${file} is damaged or not a sqlboard store (${why}): move it away or delete it (it is a cache of results), or give another --store`,
    );
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
