import type { Argv, CommandModule } from 'yargs';
import { IMPORT_ROSE_OPTIONS } from '../api/import-rose-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import type { RoseArgs } from './import-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `sqlboard import rose`'s flags and help; what it does (and all it loads) is in import-run.ts, loaded only to run it. */
const rose: CommandModule<object, RoseArgs> = {
  command: 'rose <dir>',
  describe: 'Import a recorded ROSE run (eval_results.json + prover/refuter outputs) as per-item verdicts',
  builder: (y) =>
    withExamples(
      addReportOptions(
        addOptionTable((y as Argv<object>).positional('dir', { type: 'string', demandOption: true, describe: 'ROSE output directory (holds eval_results.json)' }), IMPORT_ROSE_OPTIONS),
      ),
      'import rose',
    ) as unknown as Argv<RoseArgs>,
  handler: async (argv) => (await import('./import-run.js')).runImportRose(argv),
};

export const importCommand: CommandModule<object, object> = {
  ...VERBS.import,
  builder: (y) => y.command(rose as unknown as CommandModule<object, object>).demandCommand(1, 'Name a format: `sqlboard import rose DIR`'),
  handler: () => {},
};
