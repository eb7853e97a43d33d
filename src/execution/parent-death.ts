import { spawnSync } from 'node:child_process';

/**
 * How an execution process dies with its parent. SQLite inside one long native step cannot be
 * interrupted, so an orphan (its parent SIGKILLed) would run a hostile query to its end. Linux can
 * kill it for us: util-linux's `setpriv --pdeathsig KILL` sets PR_SET_PDEATHSIG and then runs Node,
 * which costs nothing at run time. Where setpriv is missing (not Linux, a slim image), the child
 * starts a watchdog thread instead, which costs each process some 10 MB and 0.1 s of CPU to boot.
 */
export interface ParentDeath {
  /** fork() options: the program and its leading arguments, or undefined to run Node directly. */
  wrapper?: { execPath: string; args: string[] };
  /** The child starts its own watchdog thread (no wrapper). */
  watchdog: boolean;
}

/** Set in the child's environment when the kernel kills it with its parent. */
export const KERNEL_WATCHED = 'SQLBOARD_PDEATHSIG';
/** For tests: force the watchdog thread even where setpriv exists. */
export const NO_SETPRIV = 'SQLBOARD_NO_SETPRIV';

let found: ParentDeath | undefined;

export function parentDeath(): ParentDeath {
  if (found) return found;
  const usable =
    process.platform === 'linux' &&
    !process.env[NO_SETPRIV] &&
    // One short probe per process (a few ms): setpriv too old for --pdeathsig exits non-zero.
    spawnSync('setpriv', ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  found = usable ? { wrapper: { execPath: 'setpriv', args: ['--pdeathsig', 'KILL', '--', process.execPath] }, watchdog: false } : { watchdog: true };
  return found;
}
