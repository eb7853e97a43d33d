import type { OptionTable } from './option-table.js';

/** `sqlboard import rose DIR`'s options (DIR is `dir`). */
export const IMPORT_ROSE_OPTIONS = {
  system: { type: 'string', demandOption: true, describe: 'Name written into every record' },
  subset: { type: 'string', describe: 'Subset name (default: a rose-vec-<name> segment of DIR)' },
  out: { type: 'string', describe: 'Write the per-item records as JSONL to FILE' },
} as const satisfies OptionTable;
