import type { Argv, CommandModule } from 'yargs';
import { batchStatus } from '../api/batch-status.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { DEFAULT_STORE } from '../store/run-store.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';

interface BatchStatusArgs extends ReportOptions {
  store: string;
}

const statusCommand: CommandModule<object, BatchStatusArgs> = {
  command: 'status',
  describe: "Lists the run store's provider batches with their last polled state (no request is made)",
  builder: (y: Argv) =>
    addReportOptions(y.option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store holding the batch ids' })) as unknown as Argv<BatchStatusArgs>,
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
