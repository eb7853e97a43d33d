import { writeItems } from '../benchmark/items.js';
import { importRoseDir } from '../benchmark/rose-import.js';
import { roseImportReport } from '../report/import-report.js';
import { checkOutputTargets } from '../report/output-targets.js';
import { metaBeside, withProvenance, writeMetaBeside } from './provenance.js';
import type { OptionValues } from './option-table.js';
import type { CommandResult } from './types.js';
import { IMPORT_ROSE_OPTIONS } from './import-rose-options.js';

export type ImportRoseOptions = {
  /** ROSE output directory (holds eval_results.json). */
  dir: string;
} & OptionValues<typeof IMPORT_ROSE_OPTIONS>;

/** Imports a recorded ROSE run as per-item verdicts (`sqlboard import rose`). */
export function importRose(opts: ImportRoseOptions): CommandResult {
  const started = new Date();
  // Before reading: `out` may not overwrite a file of the ROSE directory.
  if (opts.out) checkOutputTargets([{ flag: 'dir', path: opts.dir }], metaBeside(opts.out)!.map((path) => ({ flag: 'out', path })));
  const result = importRoseDir(opts.dir, { system: opts.system, subset: opts.subset });
  const notes = [...result.notes];
  if (opts.out) {
    writeItems(opts.out, result.records, '--out');
    notes.push(`wrote ${result.records.length} records to ${opts.out}`);
  }
  const imported = withProvenance({ report: roseImportReport(result.summary), json: result.summary as unknown as Record<string, unknown>, notes }, { command: 'import rose', options: opts, started });
  if (opts.out) writeMetaBeside('--out', opts.out, imported);
  return imported;
}
