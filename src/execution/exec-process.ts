import { fork, type ChildProcess } from 'node:child_process';
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

export interface ExecProcess {
  child: ChildProcess;
  /** Started through setpriv (parent-death.ts). */
  throughSetpriv: boolean;
}

/** Starts one execution process (exec-child), which says 'ready' once it can take queries. */
export function forkExecProcess(): ExecProcess {
  const setpriv = setprivPath();
  const nodeArgs = [...(isSource ? ['--import', 'tsx'] : []), ...CHILD_V8_FLAGS];
  const child = fork(CHILD, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    // The kernel kills the process with this one (parent-death.ts), else its own watchdog thread does.
    ...(setpriv
      ? { execPath: setpriv, execArgv: ['--pdeathsig', 'KILL', '--', process.execPath, ...nodeArgs], env: { ...process.env, [KERNEL_WATCHED]: '1' } }
      : { execArgv: nodeArgs }),
  });
  return { child, throughSetpriv: setpriv !== undefined };
}
