import type { Argv, CommandModule } from 'yargs';
import { IMPORT_ROSE_OPTIONS, importRose, type ImportRoseOptions } from '../api/import-rose.js';
import { metaBeside } from '../api/provenance.js';
import { addOptionTable } from './option-table.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';

type RoseArgs = ReportOptions & ImportRoseOptions;

const rose: CommandModule<object, RoseArgs> = {
  command: 'rose <dir>',
  describe: 'Import a recorded ROSE run (eval_results.json + prover/refuter outputs) as per-item verdicts',
  builder: (y) =>
    addReportOptions(
      addOptionTable((y as Argv<object>).positional('dir', { type: 'string', demandOption: true, describe: 'ROSE output directory (holds eval_results.json)' }), IMPORT_ROSE_OPTIONS),
    ) as unknown as Argv<RoseArgs>,
  handler: (argv) => {
    checkOutputs(argv, { inputs: { 'ROSE directory': argv.dir }, outputs: { '--out': metaBeside(argv.out) } });
    const result = importRose(apiOptions(argv));
    for (const note of result.notes) process.stderr.write(`sqlboard: ${note}\n`);
    emitReport(result.report, result.json, argv);
  },
};

export const importCommand: CommandModule<object, object> = {
  ...VERBS.import,
  builder: (y) => y.command(rose as unknown as CommandModule<object, object>).demandCommand(1, 'Name a format: `sqlboard import rose DIR`'),
  handler: () => {},
};
