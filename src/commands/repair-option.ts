import type { Argv } from 'yargs';
import type { RepairName } from '../benchmark/repairs.js';
import { REPAIR_OPTIONS } from '../api/shared-options.js';
import { addOptionTable } from './option-table.js';

/** `--repair NAME` (repeatable), for the commands whose flags are not yet one option table (judge, audit). */
export function addRepairOption<T>(y: Argv<T>): Argv<T & { repair?: RepairName[] }> {
  return addOptionTable(y, REPAIR_OPTIONS) as unknown as Argv<T & { repair?: RepairName[] }>;
}
