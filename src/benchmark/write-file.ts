import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';

/**
 * mkdir -p one level at a time: Node 20's recursive mkdirSync loops forever on a path it cannot
 * create under /proc (ENOENT from a directory that exists), where this fails at once.
 */
export function makeDirs(dir: string): void {
  if (existsSync(dir)) return;
  const parent = dirname(dir);
  if (parent !== dir) makeDirs(parent);
  mkdirSync(dir);
}

/** The user error for an output that cannot be written, naming the option and the file. */
export function outputFailure(flag: string, path: string, e: unknown): UserError {
  const code = (e as { code?: unknown } | undefined)?.code;
  const why = typeof code === 'string' ? `${code}: ${(e as Error).message}` : String(e);
  return new UserError(`cannot write ${flag} ${path} (${why}): give a path in a writable directory`);
}

/** Writes an output file, creating its directory; a failure is a user error naming `flag` and the file. */
export function writeOutputFile(flag: string, path: string, text: string): void {
  try {
    makeDirs(dirname(path));
    writeFileSync(path, text);
  } catch (e) {
    throw outputFailure(flag, path, e);
  }
}
