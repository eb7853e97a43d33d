import { importRose, type ImportRoseOptions } from '../api/import-rose.js';
import { metaBeside } from '../api/provenance.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { apiOptions } from './api-options.js';

export type RoseArgs = ReportOptions & ImportRoseOptions;

/** `sqlboard import rose`'s handler (its flags: import.ts). */
export function runImportRose(argv: RoseArgs): void {
  checkOutputs(argv, { inputs: { 'ROSE directory': argv.dir }, outputs: { '--out': metaBeside(argv.out) } });
  const result = importRose(apiOptions(argv));
  for (const note of result.notes) process.stderr.write(`sqlboard: ${note}\n`);
  emitReport(result.report, result.json, argv);
}
