import { existsSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { UserError } from '../errors.js';
import { BatchStore } from '../llm/batch/batch-store.js';
import { batchStatusReport } from '../report/batch-report.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { addReportOptions, checkOutputs } from './report-options.js';
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
    if (!existsSync(argv.store)) throw new UserError(`no run store at ${argv.store}: pass the --store the batch run used`);
    const store = openRunStore(argv.store);
    try {
      const batches = new BatchStore(store).list();
      emitReport(batchStatusReport(argv.store, batches), { store: argv.store, batches }, argv);
    } finally {
      store.close();
    }
  },
};

export const batchCommand: CommandModule = {
  ...VERBS.batch,
  builder: (y: Argv) => y.command(statusCommand).demandCommand(1),
  handler: () => {},
};
