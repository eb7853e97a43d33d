import type { Argv } from 'yargs';
import type { ReportOptions } from '../report/output.js';
import { DEFAULT_COLUMNS } from '../report/default-columns.js';
import { refuseNegation } from './option-table.js';

/** Every command's output flags (also listed by docs/commands/, scripts/gen-docs.ts). */
export const REPORT_OPTIONS = {
  json: { type: 'boolean', describe: "Print the command's JSON result on stdout (nothing else)" },
  csv: { type: 'string', describe: 'Write the main table as CSV to FILE (stdout if no FILE)' },
  'csv-raw': {
    type: 'boolean',
    describe: "CSV: write cells starting with = + - @ TAB or CR as they are (default: such a cell that is no number gets a leading ', so spreadsheets do not run it as a formula)",
  },
  md: { type: 'string', describe: 'Write the report as Markdown to FILE (stdout if no FILE)' },
  html: { type: 'string', describe: 'Write a self-contained HTML report to FILE' },
  wide: { type: 'boolean', describe: `Terminal tables at full width (default: fit the terminal, ${DEFAULT_COLUMNS} columns when not one)` },
} as const;

/** Adds --json, --csv [FILE], --csv-raw, --md [FILE], --html FILE, --wide to a command's builder. */
export function addReportOptions<T>(y: Argv<T>): Argv<T & ReportOptions> {
  for (const [name, spec] of Object.entries(REPORT_OPTIONS)) {
    y = y.option(name, { ...spec, ...(spec.type === 'string' ? { coerce: refuseNegation(name) } : {}) }) as unknown as Argv<T>;
  }
  return y.group(Object.keys(REPORT_OPTIONS), 'Output:') as unknown as Argv<T & ReportOptions>;
}
