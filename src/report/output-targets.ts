import { closeSync, existsSync, openSync, realpathSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { UserError } from '../errors.js';
import { makeDirs, outputFailure } from '../benchmark/write-file.js';

/** A path given to an option: `flag` names it in messages (`--md`, `--questions`, `--system base`). */
export interface PathUse {
  flag: string;
  path: string;
}

interface Resolved extends PathUse {
  /** The real path (symlinks resolved); for a path that does not exist yet, its nearest existing ancestor's real path joined with the rest. */
  real: string;
  stats?: Stats;
}

function resolvePath(use: PathUse): Resolved {
  const stats = statOrUndefined(use.path);
  if (stats) return { ...use, real: realpathSync(use.path), stats };
  // Walk up to the first ancestor that exists, so that two spellings of one new file still compare equal.
  let dir = resolve(use.path);
  const rest: string[] = [];
  while (!existsSync(dir) && dirname(dir) !== dir) {
    rest.unshift(basename(dir));
    dir = dirname(dir);
  }
  return { ...use, real: join(existsSync(dir) ? realpathSync(dir) : dir, ...rest) };
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What sqlboard reads from an input directory: databases, ROSE's JSON outputs, BIRD's description CSVs. */
const READ_IN_DIRECTORIES = /\.(sqlite|sqlite3|json|jsonl|csv|sql)$/i;

const sameFile = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino;
const inside = (dir: string, path: string): boolean => {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

/**
 * Checks every output before any work: none is a directory, none writes over an input (the same
 * file after symlinks and hard links, or an existing database, JSON or CSV file inside an input directory), no two
 * outputs are the same file, and each one's directory can be created and written. Creates the
 * missing output directories (one level at a time, so a path under /proc fails at once).
 * Throws a UserError naming both options.
 */
export function checkOutputTargets(inputs: readonly PathUse[], outputs: readonly PathUse[]): void {
  /** An option naming one path as input and output: the run store. */
  const readWrite = (o: PathUse): boolean => inputs.some((i) => i.flag === o.flag && i.path === o.path);
  const outs = outputs.map(resolvePath);
  const ins = inputs.filter((i) => i.path !== '' && i.path !== ':memory:').map(resolvePath).filter((i) => i.stats);
  for (const o of outs) {
    if (o.stats?.isDirectory()) throw new UserError(`${o.flag} ${o.path} is a directory: give a file name`);
  }
  outs.forEach((o, i) => {
    for (const p of outs.slice(0, i)) {
      if (o.real === p.real || (o.stats && p.stats && sameFile(o.stats, p.stats))) {
        throw new UserError(`${p.flag} ${p.path} and ${o.flag} ${o.path} are the same file: give each output its own file`);
      }
    }
    for (const input of ins) {
      // The same option naming the same path is one file read and written (the run store), not an overwrite.
      if (input.flag === o.flag && input.path === o.path) continue;
      // In an input directory only the kinds of file sqlboard reads there count (databases, ROSE JSON, BIRD's
      // description CSVs): a run store or a report kept beside the databases is no input.
      const over =
        o.stats &&
        (input.stats!.isDirectory() ? !readWrite(o) && READ_IN_DIRECTORIES.test(o.real) && inside(input.real, o.real) : sameFile(o.stats, input.stats!));
      if (over) {
        const what = input.stats!.isDirectory() ? `is a file inside an input directory (${input.flag} ${input.path})` : `is an input of this command (${input.flag} ${input.path})`;
        throw new UserError(`${o.flag} ${o.path} ${what}: sqlboard never writes over its inputs; give another output file`);
      }
    }
  });
  // A file both read and written (the run store) reports its own failures, with its own advice, when opened.
  for (const o of outs) if (!readWrite(o)) checkWritable(o);
}

/** Creates the output's directory and proves it writable (root passes every permission check, so only trying tells). */
function checkWritable(o: Resolved): void {
  try {
    if (o.stats) {
      // An existing regular file is opened for writing without truncating it; a device (/dev/null) or FIFO is left alone.
      if (o.stats.isFile()) closeSync(openSync(o.path, 'r+'));
      return;
    }
    const dir = dirname(resolve(o.path));
    makeDirs(dir);
    const probe = join(dir, `.sqlboard-write-check-${process.pid}-${Date.now()}`);
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (e) {
    throw outputFailure(o.flag, o.path, e);
  }
}
