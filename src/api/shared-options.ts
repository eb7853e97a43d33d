import { REPAIR_DESCRIPTIONS, REPAIR_NAMES } from '../benchmark/repairs.js';
import type { OptionTable } from './option-table.js';

/** `--repair NAME` (repeatable), shared by the commands that read prediction files. */
export const REPAIR_OPTIONS = {
  repair: {
    type: 'string',
    array: true,
    choices: REPAIR_NAMES,
    describe: `Opt-in repair of prediction text, reported with counts (default none, as the official evaluators): ${REPAIR_NAMES.map((n) => `${n}: ${REPAIR_DESCRIPTIONS[n]}`).join('; ')}`,
  },
} as const satisfies OptionTable;
