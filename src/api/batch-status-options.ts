import { DEFAULT_STORE } from '../store/default-store.js';
import type { OptionTable } from './option-table.js';

/** `sqlboard batch status`'s options: the CLI's flags and the library's options object come from here. */
export const BATCH_STATUS_OPTIONS = {
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store holding the batch ids' },
} as const satisfies OptionTable;
