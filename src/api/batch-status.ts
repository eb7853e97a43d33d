import { existsSync } from 'node:fs';
import { UserError } from '../errors.js';
import { BatchStore } from '../llm/batch/batch-store.js';
import { batchStatusReport } from '../report/batch-report.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { withProvenance } from './provenance.js';
import type { OptionValues } from './option-table.js';
import type { CommandResult } from './types.js';
import { BATCH_STATUS_OPTIONS } from './batch-status-options.js';

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
