import type { RunHooks } from '../api/types.js';
import { stopOnSignals } from './interrupt.js';
import { runProgress } from './progress.js';

/**
 * Runs a long API call (score, judge, audit, validate) with the terminal's progress bars and the
 * clean stop on SIGINT/SIGTERM for its run store; the bars are cleared however the call ends.
 */
export async function withRunHooks<T>(store: string, call: (hooks: RunHooks) => Promise<T>): Promise<T> {
  const progress = runProgress();
  try {
    return await call({ onProgress: progress.onProgress, onBatchProgress: progress.onBatchProgress, onStoppable: stopOnSignals(store) });
  } finally {
    progress.stop();
  }
}
