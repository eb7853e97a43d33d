import type { Argv } from 'yargs';
import { checkReportOptions, reportFiles, type ReportOptions } from '../report/output.js';
import { checkOutputTargets, type PathUse } from '../report/output-targets.js';
import { DEFAULT_COLUMNS } from '../report/terminal.js';

/** Adds --json, --csv [FILE], --md [FILE], --html FILE, --wide to a command's builder. */
export function addReportOptions<T>(y: Argv<T>): Argv<T & ReportOptions> {
  return y
    .option('json', { type: 'boolean', describe: "Print the command's JSON result on stdout (nothing else)" })
    .option('csv', { type: 'string', describe: 'Write the main table as CSV to FILE (stdout if no FILE)' })
    .option('md', { type: 'string', describe: 'Write the report as Markdown to FILE (stdout if no FILE)' })
    .option('html', { type: 'string', describe: 'Write a self-contained HTML report to FILE' })
    .option('wide', { type: 'boolean', describe: `Terminal tables at full width (default: fit the terminal, ${DEFAULT_COLUMNS} columns when not one)` })
    .group(['json', 'csv', 'md', 'html', 'wide'], 'Output:') as unknown as Argv<T & ReportOptions>;
}

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
