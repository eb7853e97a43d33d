import type { Argv, CommandModule } from 'yargs';
import { BATCH_STATUS_OPTIONS } from '../api/batch-status-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import type { BatchStatusArgs } from './batch-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `sqlboard batch status`'s flags and help; what it does (and all it loads) is in batch-run.ts, loaded only to run it. */
const statusCommand: CommandModule<object, BatchStatusArgs> = {
  command: 'status',
  describe: "Lists the run store's provider batches with their last polled state (no request is made)",
  builder: (y: Argv) =>
    withExamples(addReportOptions(addOptionTable(y, BATCH_STATUS_OPTIONS)), 'batch status') as unknown as Argv<BatchStatusArgs>,
  handler: async (argv) => (await import('./batch-run.js')).runBatchStatus(argv),
};

export const batchCommand: CommandModule = {
  ...VERBS.batch,
  builder: (y: Argv) => y.command(statusCommand).demandCommand(1),
  handler: () => {},
};
