import type { Argv, CommandModule } from 'yargs';
import { BATCH_STATUS_OPTIONS, batchStatus } from '../api/batch-status.js';
import type { ParsedOptions } from '../api/option-table.js';
import { addOptionTable } from './option-table.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';

type BatchStatusArgs = ReportOptions & ParsedOptions<typeof BATCH_STATUS_OPTIONS>;

const statusCommand: CommandModule<object, BatchStatusArgs> = {
  command: 'status',
  describe: "Lists the run store's provider batches with their last polled state (no request is made)",
  builder: (y: Argv) =>
    addReportOptions(addOptionTable(y, BATCH_STATUS_OPTIONS)) as unknown as Argv<BatchStatusArgs>,
  handler: (argv) => {
    checkOutputs(argv, { inputs: { '--store': argv.store } });
    const result = batchStatus(apiOptions(argv));
    emitReport(result.report, result.json, argv);
  },
};

export const batchCommand: CommandModule = {
  ...VERBS.batch,
  builder: (y: Argv) => y.command(statusCommand).demandCommand(1),
  handler: () => {},
};
