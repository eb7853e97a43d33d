import { ExitCode } from '../exit-codes.js';
import { abortProgress, type StageCount } from './progress.js';

/** What a long run holds that a signal must stop: the store it writes, and how to stop its work at once. */
export interface Interruptible {
  /** The run store's file, named in the message. */
  store: string;
  /** Synchronous: kills the execution processes, writes pending results, closes the store. */
  stopNow(): void;
}

const running = new Set<Interruptible>();
let installed = false;

/**
 * SIGINT (Ctrl-C) and SIGTERM during a long run (score, judge, audit, validate's live judge): the
 * progress bars are cleared and the cursor and line wrap restored, the execution processes killed,
 * pending results written and the store closed; stderr says how far each stage got and that a re-run
 * resumes; the process exits 130 (SIGINT) or 143 (SIGTERM). Without this, Node died at once and
 * left the terminal without a cursor. Returns the function that ends the registration.
 */
export function stopCleanlyOnSignals(run: Interruptible): () => void {
  if (!installed) {
    installed = true;
    process.once('SIGINT', () => interrupted('SIGINT'));
    process.once('SIGTERM', () => interrupted('SIGTERM'));
  }
  running.add(run);
  return () => running.delete(run);
}

function interrupted(signal: 'SIGINT' | 'SIGTERM'): void {
  const stages = abortProgress();
  const failures: string[] = [];
  for (const run of running) {
    try {
      run.stopNow();
    } catch (e) {
      failures.push(`${run.store}: ${(e as Error).message}`);
    }
  }
  process.stderr.write(interruptMessage(signal, stages, [...running].map((r) => r.store), failures));
  process.exit(signal === 'SIGINT' ? ExitCode.Interrupted : ExitCode.Terminated);
}

/** The lines an interrupted run prints: where each stage stopped, where its results are, how to resume. */
export function interruptMessage(signal: string, stages: readonly StageCount[], stores: readonly string[], failures: readonly string[] = []): string {
  const progress = stages.map((s) => `${s.label} ${s.done} of ${s.total}${s.kept ? '' : ' (not kept: redone by a re-run)'}`);
  const where = stores.length ? `: every finished item is kept in the run store ${stores.join(', ')}; run the same command again to resume where it stopped` : '';
  const lines = [
    `sqlboard: interrupted by ${signal}${progress.length ? ` (${progress.join('; ')} done)` : ''}${where}.`,
    ...failures.map((f) => `sqlboard: could not close ${f}`),
  ];
  return lines.join('\n') + '\n';
}

/** The library's `onStoppable` hook (src/api/types.ts) for a run that writes `store`: stops it cleanly on a signal. */
export const stopOnSignals =
  (store: string) =>
  (stopNow: () => void): (() => void) =>
    stopCleanlyOnSignals({ store, stopNow });
