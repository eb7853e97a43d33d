import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A directory holding a `setpriv` too old for --pdeathsig (it exits with an error before Node starts)
 * and a one-task gold file for `dev`'s first question; returns the PATH that finds this setpriv first
 * and the gold file.
 */
export function failingSetprivSetup(dir: string, first: { query: string; db_id: string }): { path: string; gold: string } {
  const bin = join(dir, 'failing-setpriv-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'setpriv'), '#!/bin/sh\necho "setpriv: unrecognized option --pdeathsig" >&2\nexit 1\n');
  chmodSync(join(bin, 'setpriv'), 0o755);
  const gold = join(dir, 'gold.sql');
  writeFileSync(gold, `${first.query}\t${first.db_id}\n`);
  return { path: `${bin}:${process.env.PATH ?? ''}`, gold };
}
