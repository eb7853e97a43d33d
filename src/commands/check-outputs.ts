import { checkReportOptions, reportFiles, type ReportOptions } from '../report/output.js';
import { checkOutputTargets, type PathUse } from '../report/output-targets.js';

/** Paths by option name; an absent option or list is skipped. */
export type PathOptions = Record<string, string | readonly string[] | undefined>;

const uses = (paths: PathOptions): PathUse[] =>
  Object.entries(paths).flatMap(([flag, v]) => (v === undefined ? [] : (typeof v === 'string' ? [v] : v).map((path) => ({ flag, path }))));

/**
 * The one check every command makes before any work (execution, LLM calls): its output options
 * (`--csv`/`--md`/`--html` from `argv` plus the command's own `outputs`, e.g. `--items`) neither
 * conflict nor write over one of `inputs`, and each can be written (src/report/output-targets.ts).
 */
export function checkOutputs(argv: ReportOptions, files: { inputs: PathOptions; outputs?: PathOptions }): void {
  checkReportOptions(argv);
  checkOutputTargets(uses(files.inputs), [...uses(files.outputs ?? {}), ...reportFiles(argv)]);
}
