import { batchStatus } from '../api/batch-status.js';
import type { BATCH_STATUS_OPTIONS } from '../api/batch-status-options.js';
import type { ParsedOptions } from '../api/option-table.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { apiOptions } from './api-options.js';

export type BatchStatusArgs = ReportOptions & ParsedOptions<typeof BATCH_STATUS_OPTIONS>;

/** `sqlboard batch status`'s handler (its flags: batch.ts). */
export function runBatchStatus(argv: BatchStatusArgs): void {
  checkOutputs(argv, { inputs: { '--store': argv.store } });
  const result = batchStatus(apiOptions(argv));
  emitReport(result.report, result.json, argv);
}
