import type { Argv } from 'yargs';
import { BATCH_OPTIONS, LLM_CALL_OPTIONS } from '../api/llm-options.js';
import { scopedOptions } from '../api/option-table.js';
import { addOptionTable } from './option-table.js';

/** The LLM call options (src/api/llm-options.ts), for the commands whose flags are not yet one table; `scope` prefixes their help. */
export function addLlmCallOptions<T>(y: Argv<T>, scope?: string): Argv<T> {
  return addOptionTable(y, scope ? scopedOptions(LLM_CALL_OPTIONS, scope) : LLM_CALL_OPTIONS);
}

/** The batch-mode options (--batch and its companions), for the commands whose flags are not yet one table. */
export function addBatchOptions<T>(y: Argv<T>, scope?: string): Argv<T> {
  return addOptionTable(y, scope ? scopedOptions(BATCH_OPTIONS, scope) : BATCH_OPTIONS);
}

export interface BatchArgs {
  batch: boolean;
  batchWait: string;
  batchFallback: string;
  batchPoll: number;
  provider?: string;
  record?: string;
}
