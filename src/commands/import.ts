import type { Argv, CommandModule } from 'yargs';
import { importRose } from '../api/import-rose.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';

interface RoseArgs extends ReportOptions {
  dir: string;
  system: string;
  subset?: string;
  out?: string;
}

const rose: CommandModule<object, RoseArgs> = {
  command: 'rose <dir>',
  describe: 'Import a recorded ROSE run (eval_results.json + prover/refuter outputs) as per-item verdicts',
  builder: (y) =>
    addReportOptions(
      (y as Argv<object>)
        .positional('dir', { type: 'string', demandOption: true, describe: 'ROSE output directory (holds eval_results.json)' })
        .option('system', { type: 'string', demandOption: true, describe: 'Name written into every record' })
        .option('subset', { type: 'string', describe: 'Subset name (default: a rose-vec-<name> segment of DIR)' })
        .option('out', { type: 'string', describe: 'Write the per-item records as JSONL to FILE' }),
    ) as unknown as Argv<RoseArgs>,
  handler: (argv) => {
    checkOutputs(argv, { inputs: { 'ROSE directory': argv.dir }, outputs: { '--out': argv.out } });
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
