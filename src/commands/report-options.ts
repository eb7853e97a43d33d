import type { Argv } from 'yargs';
import type { ReportOptions } from '../report/output.js';
import { DEFAULT_COLUMNS } from '../report/default-columns.js';

/** Adds --json, --csv [FILE], --csv-raw, --md [FILE], --html FILE, --wide to a command's builder. */
export function addReportOptions<T>(y: Argv<T>): Argv<T & ReportOptions> {
  return y
    .option('json', { type: 'boolean', describe: "Print the command's JSON result on stdout (nothing else)" })
    .option('csv', { type: 'string', describe: 'Write the main table as CSV to FILE (stdout if no FILE)' })
    .option('csv-raw', {
      type: 'boolean',
      describe: "CSV: write cells starting with = + - @ TAB or CR as they are (default: such a cell that is no number gets a leading ', so spreadsheets do not run it as a formula)",
    })
    .option('md', { type: 'string', describe: 'Write the report as Markdown to FILE (stdout if no FILE)' })
    .option('html', { type: 'string', describe: 'Write a self-contained HTML report to FILE' })
    .option('wide', { type: 'boolean', describe: `Terminal tables at full width (default: fit the terminal, ${DEFAULT_COLUMNS} columns when not one)` })
    .group(['json', 'csv', 'csv-raw', 'md', 'html', 'wide'], 'Output:') as unknown as Argv<T & ReportOptions>;
}
