import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import { BatchStore } from '../llm/batch/batch-store.js';
import { batchStatusReport } from '../report/batch-report.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { withProvenance } from './provenance.js';
import type { OptionTable, OptionValues } from './option-table.js';
import type { CommandResult } from './types.js';

/** `sqlboard batch status`'s options: the CLI's flags and the library's options object come from here. */
export const BATCH_STATUS_OPTIONS = {
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store holding the batch ids' },
} as const satisfies OptionTable;

export type BatchStatusOptions = OptionValues<typeof BATCH_STATUS_OPTIONS>;

/** The run store's provider batches with their last polled state; no request is made (`sqlboard batch status`). */
export function batchStatus(opts: BatchStatusOptions): CommandResult {
  const started = new Date();
  const file = opts.store ?? DEFAULT_STORE;
  if (!existsSync(file)) throw new UserError(`no run store at ${file}: pass the --store the batch run used`);
  const store = openRunStore(file);
  try {
    const batches = new BatchStore(store).list();
    return withProvenance({ report: batchStatusReport(file, batches), json: { store: file, batches }, notes: [] }, { command: 'batch status', options: opts, started });
  } finally {
    store.close();
  }
}
