import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every SQLite 3 database file starts with these 16 bytes (https://sqlite.org/fileformat.html). */
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * Why `dbId` cannot name a database directory under --db-root, or undefined when it can: only a
 * plain directory name, so that `../secret`, `/etc` or `a/b` never leave --db-root.
 */
export function dbIdProblem(dbId: string): string | undefined {
  if (dbId === '' || dbId === '.' || dbId === '..') return 'is not a directory name';
  if (/[/\\\0]/.test(dbId)) return 'must be a plain directory name inside --db-root (no "/", "\\" or NUL)';
  return undefined;
}

/** Where a benchmark database lives under a --db-root: `<db_id>/<db_id>.sqlite`. */
export function databaseFile(dbRoot: string, dbId: string): string {
  return join(dbRoot, dbId, `${dbId}.sqlite`);
}

/**
 * Why `path` is not a SQLite database file, or undefined when it is one. Checked before the file
 * is hashed or opened: a FIFO would block the hash forever, a link to /dev/zero would stream
 * zeros forever, a directory fails with EISDIR; an empty or foreign file would only make every
 * query fail. Only the type (after links), the size and the 16-byte header are read.
 */
export function sqliteFileProblem(path: string): string | undefined {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (e as Error).message})`;
  }
  if (st.isDirectory()) return 'is a directory, not a SQLite file';
  if (st.isFIFO()) return 'is a FIFO (named pipe), not a SQLite file';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'is a device, not a SQLite file';
  if (st.isSocket()) return 'is a socket, not a SQLite file';
  if (!st.isFile()) return 'is not a regular file';
  if (st.size === 0) return 'is empty (0 bytes), not a SQLite database';
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const n = readSync(fd, head, 0, head.length, 0);
    if (n < head.length || !head.equals(SQLITE_HEADER)) return 'is not a SQLite 3 database (its header is not "SQLite format 3")';
  } catch (e) {
    return `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return undefined;
}

/**
 * test-suite-sql-eval's database folder: every entry of the database file's directory whose name
 * contains `.sqlite` (its exact rule, so `x.sqlite.bak` and `x.sqlite-wal` count too), the
 * database file first, the others by name (officially in directory order, which cannot change a
 * verdict: the prediction must match on all of them). Each is checked like the database file;
 * the reason is returned for the first that is not a SQLite file, as the official program stops
 * with an assertion when the gold fails on one.
 */
export function testSuiteFiles(mainPath: string): { files: string[] } | { bad: string; problem: string } {
  const dir = dirname(mainPath);
  const others = readdirSync(dir)
    .filter((name) => name.includes('.sqlite'))
    .map((name) => resolve(dir, name))
    .filter((path) => path !== mainPath)
    .sort();
  for (const path of others) {
    const problem = sqliteFileProblem(path);
    if (problem) return { bad: path, problem };
  }
  return { files: [mainPath, ...others] };
}
