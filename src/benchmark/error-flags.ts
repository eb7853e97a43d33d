import { parseIdLabelCsv } from './id-label-csv.js';
import { readText } from './read-json.js';

/**
 * Reads per-task gold-error flags in SALUS's prediction CSV format: header `task_id,predicted_label`,
 * label 0 = the task's gold is predicted WRONG (flagged), 1 = predicted fine.
 * Returns taskId → flagged. Task ids stay strings, matching item records.
 */
export function readErrorFlags(file: string): Map<string, boolean> {
  return parseIdLabelCsv(file, readText(file), {
    idColumns: ['task_id'],
    labelColumns: ['predicted_label'],
    parseLabel: (raw) => (raw === '0' ? true : raw === '1' ? false : undefined),
    labelsHint: '0 (wrong gold) or 1 (fine)',
    headerHint: 'SALUS flags: 0 = wrong gold',
  }).labels;
}
