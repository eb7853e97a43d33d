import type { ChildMessage } from './pool-protocol.js';
import { prespawnWanted } from './prespawn-when.js';
import { forkExecProcess, type ExecProcess } from './exec-process.js';
import { setprivFailed } from './parent-death.js';

/**
 * The first execution process, started before the CLI has loaded its modules. A cold `score` spends
 * some 0.3 s loading its code and files before the engine exists, and an execution process needs
 * about as long to boot; started first thing (bin/sqlboard.js), it boots meanwhile, and the pool
 * adopts it (and starts any others itself, pool.ts GROW_AT_MS). Only for a run that will execute
 * (prespawn-when.ts): a run store that already exists may hold every result (a re-run starts no
 * process), so then the engine starts it as before, when needed.
 */
interface Early extends ExecProcess {
  ready: boolean;
  /** Its resident memory when it said it was ready. */
  readyRss?: number;
  onMessage: (msg: ChildMessage) => void;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
}

/**
 * Shared through a global: bin/sqlboard.js starts them from tsc's output (dist/src), and the pool
 * that adopts them runs from the CLI's bundle (dist/cli), which has its own copy of this module.
 */
const REGISTRY = Symbol.for('sqlboard.prespawned-execution-processes');
const early: Early[] = ((globalThis as Record<symbol, Early[] | undefined>)[REGISTRY] ??= []);

/** `args`: the CLI's arguments (process.argv without node and the script). */
export function prespawnFor(args: readonly string[]): void {
  if (!prespawnWanted(args)) return;
  // The pool's first process (pool.ts starts the others once the queued work is worth them).
  const p = forkExecProcess();
  const e: Early = {
    ...p,
    ready: false,
    onMessage: (msg) => {
      if (msg.type !== 'ready') return;
      e.ready = true;
      if (msg.rss !== undefined) e.readyRss = msg.rss;
    },
    onExit: (_code, signal) => {
      const at = early.indexOf(e);
      if (at >= 0) early.splice(at, 1);
      // As in the pool: a setpriv that cannot start Node ends by itself before the process is
      // ready (one killed by releasePrespawned has a signal and says nothing about setpriv).
      if (e.throughSetpriv && !e.ready && signal === null) setprivFailed();
    },
  };
  p.child.on('message', e.onMessage);
  p.child.once('exit', e.onExit);
  p.child.on('error', () => {});
  // Not adopted (the command failed first), it must not keep this process alive; it ends
  // when its IPC channel closes.
  p.child.unref();
  p.child.channel?.unref();
  early.push(e);
}

/** A process started early, for the pool to adopt (listeners removed, kept alive again), or undefined. */
export function adoptPrespawned(): (ExecProcess & { ready: boolean; readyRss?: number }) | undefined {
  const e = early.shift();
  if (!e) return undefined;
  e.child.off('message', e.onMessage);
  e.child.off('exit', e.onExit);
  e.child.ref();
  e.child.channel?.ref();
  return { child: e.child, throughSetpriv: e.throughSetpriv, ready: e.ready, ...(e.readyRss !== undefined ? { readyRss: e.readyRss } : {}) };
}

/** Ends the processes started early that no pool adopted. */
export function releasePrespawned(): void {
  for (const e of early.splice(0)) e.child.kill('SIGKILL');
}
