import { parseIdLabelCsv } from './id-label-csv.js';
import { readText } from './read-json.js';

/**
 * Reads per-task gold-error flags in SALUS's CSV formats: predictions (`task_id,predicted_label`) or
 * hand-labelled ground truth (`query_id,label[,error_type]`); 0 = the task's gold is (predicted) WRONG
 * (flagged), 1 = fine. Returns taskId → flagged. Task ids stay strings, matching item records.
 */
export function readErrorFlags(file: string): Map<string, boolean> {
  return parseIdLabelCsv(file, readText(file), {
    idColumns: ['task_id', 'query_id'],
    labelColumns: ['predicted_label', 'label'],
    parseLabel: (raw) => (raw === '0' ? true : raw === '1' ? false : undefined),
    labelsHint: '0 (wrong gold) or 1 (fine)',
    headerHint: 'SALUS flags: 0 = wrong gold',
  }).labels;
}
