import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KERNEL_WATCHED, setprivPath } from './parent-death.js';

/**
 * A young generation of 4 MB instead of V8's 16 MB: an execution process keeps nothing between
 * queries but the result it is reading, so a small nursery keeps each process smaller. 2 MB had
 * the collector copy more of the rows a digest needs: with 4, a 15-system run took ~5% less CPU
 * (5.64 → 5.23 s and 6.69 → 6.37 s, medians of two sets of alternating runs) and 4-9 MB more at
 * its peak (8 MB: 27-29 MB more).
 */
const CHILD_V8_FLAGS = ['--max-semi-space-size=4'];

const isSource = import.meta.url.endsWith('.ts');
/**
 * The build (scripts/bundle-cli.ts) writes the execution process as one CommonJS file next to each
 * module that forks it: booting it skips Node's ES module loader (asynchronous module jobs, an ES
 * facade per built-in that evaluates every lazy export, node:crypto's webcrypto among them),
 * some 50 ms of CPU per process on the development machine. Without it, or when tsc has run alone
 * since (the file is older than tsc's), tsc's ES module runs.
 */
const CHILD = fileURLToPath(new URL(isSource ? './exec-child.ts' : bundledIsFresh() ? './exec-child.cjs' : './exec-child.js', import.meta.url));

/**
 * Whether the build's exec-child.cjs exists and is not older than tsc's exec-child.js beside it (tsc
 * run alone since); in dist/cli/ there is no exec-child.js.
 */
function bundledIsFresh(): boolean {
  const mtime = (name: string): number | undefined => {
    try {
      return statSync(new URL(name, import.meta.url)).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const bundled = mtime('./exec-child.cjs');
  if (bundled === undefined) return false;
  const compiled = mtime('./exec-child.js');
  return compiled === undefined || bundled >= compiled;
}

/**
 * glibc's allocator settings for an execution process, before any the user set (theirs come later in
 * the list, and the last setting of a name wins): one arena instead of one per thread, and
 * transparent huge pages (madvise) for what it maps. Memory touched for the first time is what an
 * execution process mostly pays for beyond SQLite, and on the development machine (a virtual
 * machine) each 4 KiB page costs ~16 µs the first time: 64 MiB took ~210 ms in such pages, and in
 * huge pages 126 ms the first time and under 5 ms once that memory had been used before. The
 * compiler threads' zone memory, SQLite's page cache and the file buffers come from malloc (the
 * JavaScript heap does not). One system's queries in one process: 7,100 -> 3,450 page faults, 485 ->
 * 418 ms; whole 23-system runs, 6 alternating: 2924 -> 2676 ms, CPU 5.42 -> 4.93 s. Ignored where the
 * C library is not glibc (2.35 or later reads hugetlb). The CLI's own process starts before any of
 * this code runs, so it keeps its defaults.
 */
export const CHILD_GLIBC_TUNABLES = 'glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1';

export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const theirs = env.GLIBC_TUNABLES;
  return { ...env, GLIBC_TUNABLES: theirs ? `${CHILD_GLIBC_TUNABLES}:${theirs}` : CHILD_GLIBC_TUNABLES };
}

export interface ExecProcess {
  child: ChildProcess;
  /** Started through setpriv (parent-death.ts). */
  throughSetpriv: boolean;
}

/** Starts one execution process (exec-child), which says 'ready' once it can take queries. */
export function forkExecProcess(): ExecProcess {
  const setpriv = setprivPath();
  const child = fork(CHILD, [], execProcessOptions(setpriv, process.env));
  return { child, throughSetpriv: setpriv !== undefined };
}

/** How an execution process is forked: through `setpriv` (its path) when there is one. */
export function execProcessOptions(setpriv: string | undefined, env: NodeJS.ProcessEnv): ForkOptions {
  const nodeArgs = [...(isSource ? ['--import', 'tsx'] : []), ...CHILD_V8_FLAGS];
  return {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // The kernel kills the process with this one (parent-death.ts), else its own watchdog thread does.
    ...(setpriv
      ? { execPath: setpriv, execArgv: ['--pdeathsig', 'KILL', '--', process.execPath, ...nodeArgs], env: { ...childEnv(env), [KERNEL_WATCHED]: '1' } }
      : { execArgv: nodeArgs, env: childEnv(env) }),
  };
}
