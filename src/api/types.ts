import type { WaveProgress } from '../llm/batch/waves.js';
import type { Report } from '../report/model.js';

export type { WaveProgress } from '../llm/batch/waves.js';

/** Progress of a long stage ('executing', 'timing (VES)', 'judging', 'generating SQL'): `done` of `total` items. */
export type ProgressHook = (stage: string, done: number, total: number) => void;

/** What a caller may watch while a command runs; the library never prints. */
export interface RunHooks {
  onProgress?: ProgressHook;
  /** A provider batch wave's state (--batch runs), each time it is polled. */
  onBatchProgress?: (p: WaveProgress) => void;
  /**
   * Called once the run holds its run store and execution processes, with a synchronous `stopNow`
   * that kills the processes, writes pending results and closes the store (the CLI calls it on
   * SIGINT/SIGTERM); the caller returns the function that ends this, which the run calls when it ends.
   */
  onStoppable?: (stopNow: () => void) => () => void;
}

/** What every command returns: the CLI renders `report`, prints `json` for --json and `notes` on stderr. */
export interface CommandResult<J extends object = Record<string, unknown>> {
  /** The report model the CLI renders as a table, CSV, Markdown or HTML (src/report/model.ts). */
  report: Report;
  /** The object `--json` prints. */
  json: J;
  /** What the run tells its user, in order (repairs made on reading, files written, a stop), each one line without newline. */
  notes: string[];
}

/** A result whose systems `--fail-under` can gate, and which may be partial. */
export interface GatedResult extends CommandResult {
  /** Per system, the metrics `--fail-under` can gate. */
  metrics: { name: string; metrics: Record<string, number | undefined> }[];
  /** Why the result is partial (exit 3), empty when it is complete. */
  partial: string[];
}
