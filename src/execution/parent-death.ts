import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How an execution process dies with its parent. SQLite inside one long native step cannot be
 * interrupted, so an orphan (its parent SIGKILLed) would run a hostile query to its end. Linux can
 * kill it for us: util-linux's `setpriv --pdeathsig KILL` sets PR_SET_PDEATHSIG and then runs Node,
 * which costs nothing at run time. Where setpriv is missing (not Linux, a slim image) or fails, the
 * child starts a watchdog thread instead, which costs each process some 10 MB and 0.1 s of CPU.
 */

/** Set in the child's environment when the kernel kills it with its parent. */
export const KERNEL_WATCHED = 'SQLBOARD_PDEATHSIG';
/** For tests: force the watchdog thread even where setpriv exists. */
export const NO_SETPRIV = 'SQLBOARD_NO_SETPRIV';

/**
 * Shared through a global, as prespawn.ts's registry is: bin/sqlboard.js starts processes from tsc's
 * output and the pool runs in the CLI's bundle, each with its own copy of this module, and a setpriv
 * found unusable by one must be given up by both.
 */
const STATE = Symbol.for('sqlboard.setpriv');
const state: { path?: string | null } = ((globalThis as Record<symbol, { path?: string | null } | undefined>)[STATE] ??= {});

/**
 * The setpriv program to start execution processes through, or undefined. Found on PATH without
 * running it (a probe would cost every run a process start); a setpriv too old for --pdeathsig
 * (util-linux < 2.33, 2018) exits at once, and the pool then calls setprivFailed().
 */
export function setprivPath(): string | undefined {
  if (state.path === undefined) {
    state.path = null;
    if (process.platform === 'linux' && !process.env[NO_SETPRIV]) {
      for (const dir of (process.env.PATH ?? '').split(delimiter)) {
        if (dir && existsSync(join(dir, 'setpriv'))) {
          state.path = join(dir, 'setpriv');
          break;
        }
      }
    }
  }
  return state.path ?? undefined;
}

/** An execution process started through setpriv died before it was ready: start the rest without it. */
export function setprivFailed(): void {
  state.path = null;
}
