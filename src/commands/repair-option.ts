import type { Argv } from 'yargs';
import { REPAIR_DESCRIPTIONS, REPAIR_NAMES, type RepairName } from '../benchmark/repairs.js';

/** `--repair NAME` (repeatable), shared by the commands that read prediction files. */
export function addRepairOption<T>(y: Argv<T>): Argv<T & { repair?: RepairName[] }> {
  return y.option('repair', {
    choices: REPAIR_NAMES,
    array: true,
    describe: `Opt-in repair of prediction text, reported with counts (default none, as the official evaluators): ${REPAIR_NAMES.map((n) => `${n}: ${REPAIR_DESCRIPTIONS[n]}`).join('; ')}`,
  }) as unknown as Argv<T & { repair?: RepairName[] }>;
}
