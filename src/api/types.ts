import type { Report } from '../report/model.js';

/** Progress of a long stage ('executing', 'judging', 'generating SQL'): `done` of `total` items. */
export type ProgressHook = (stage: string, done: number, total: number) => void;

/** What a caller may watch while a command runs; the library never prints. */
export interface RunHooks {
  onProgress?: ProgressHook;
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
