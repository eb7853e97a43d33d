import { parseIdLabelCsv } from './id-label-csv.js';
import type { Benchmark } from './types.js';
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

/**
 * A note when the flags name tasks the questions do not have: flags of another benchmark, or of
 * the full set while only a subset of its questions is scored (legitimate, so not an error).
 */
export function unknownFlagTasks(file: string, flags: Map<string, boolean>, bench: Benchmark): string | undefined {
  const ids = new Set(bench.tasks.map((t) => t.id));
  const unknown = [...flags.keys()].filter((id) => !ids.has(id));
  if (unknown.length === 0) return undefined;
  const shown = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? ', ...' : '');
  return `${file}: ${unknown.length} task ids are not questions of ${bench.source} (${shown}) and were left out: are these the flags of another benchmark?`;
}
