import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPIDER } from './cli.js';

/** Fixtures for the tests of the execution processes' lives (prespawn, orphans, setpriv). */

/** A query that never ends and never grows: only a dead execution process stops it. */
export const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

interface DevQuestion {
  db_id: string;
  query: string;
}

/** Spider dev's first question in `dir`/dev.json and a prediction file that runs ENDLESS on its database. */
export function endlessTask(dir: string): { first: DevQuestion; questions: string; pred: string } {
  const first = (JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as DevQuestion[])[0]!;
  const questions = join(dir, 'dev.json');
  writeFileSync(questions, JSON.stringify([first]));
  const pred = join(dir, 'pred.sql');
  writeFileSync(pred, `${ENDLESS}\t${first.db_id}\n`);
  return { first, questions, pred };
}

/** Whether a process exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * A directory holding a `setpriv` too old for --pdeathsig (it exits with an error before Node starts)
 * and a one-task gold file for `first`; returns the PATH that finds this setpriv first and the gold file.
 */
export function failingSetprivSetup(dir: string, first: DevQuestion): { path: string; gold: string } {
  const bin = join(dir, 'failing-setpriv-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'setpriv'), '#!/bin/sh\necho "setpriv: unrecognized option --pdeathsig" >&2\nexit 1\n');
  chmodSync(join(bin, 'setpriv'), 0o755);
  const gold = join(dir, 'gold.sql');
  writeFileSync(gold, `${first.query}\t${first.db_id}\n`);
  return { path: `${bin}:${process.env.PATH ?? ''}`, gold };
}
