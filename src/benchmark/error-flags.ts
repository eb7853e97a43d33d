import { parseIdLabelCsv } from './id-label-csv.js';
import { InputFileError } from '../errors.js';
import { readText } from './read-json.js';

/**
 * Reads per-task gold-error flags in SALUS's CSV formats: predictions (`task_id,predicted_label`) or
 * hand-labelled ground truth (`query_id,label[,error_type]`); 0 = the task's gold is (predicted) WRONG
 * (flagged), 1 = fine. Returns taskId → flagged. Task ids stay strings, matching item records.
 */
export function readErrorFlags(file: string): Map<string, boolean> {
  return parseIdLabelCsv(file, readText(file), FLAGS_FORMAT).labels;
}

const FLAGS_FORMAT = {
  idColumns: ['task_id', 'query_id'],
  labelColumns: ['predicted_label', 'label'],
  parseLabel: (raw: string) => (raw === '0' ? true : raw === '1' ? false : undefined),
  labelsHint: '0 (wrong gold) or 1 (fine)',
  headerHint: 'SALUS flags: 0 = wrong gold',
};

/**
 * The review scores in a flags file that `sqlboard audit --out` wrote (its extra `score` column, in [0, 1],
 * higher = more suspicious), by task; empty for a file without that column. Cells that are no number are skipped.
 */
export function readFlagScores(file: string): Map<string, number> {
  const { extras } = parseIdLabelCsv(file, readText(file), { ...FLAGS_FORMAT, extraColumns: ['score'] });
  const scores = new Map<string, number>();
  for (const [id, cells] of extras) {
    const v = Number(cells.score);
    if (cells.score !== undefined && Number.isFinite(v)) scores.set(id, v);
  }
  return scores;
}

/**
 * Flags against the tasks they are used on. Flags for tasks the run lacks are counted (`unused`) and
 * named in a note: the full set's flags while only a subset of its questions is scored is legitimate.
 * Flags of which NO id is a task are an error: another benchmark's flags, or another id scheme, would
 * otherwise give a "clean subset" of every task, silently.
 */
export function checkFlagTasks(file: string, flags: Map<string, boolean>, taskIds: Iterable<string>, source: string): { unused: number; note?: string } {
  const ids = new Set(taskIds);
  const unknown = [...flags.keys()].filter((id) => !ids.has(id));
  if (unknown.length === 0) return { unused: 0 };
  const shown = unknown.slice(0, 5).join(', ') + (unknown.length > 5 ? ', ...' : '');
  if (unknown.length === flags.size) {
    throw new InputFileError(file, undefined, `none of its ${flags.size} task ids is a task of ${source} (${shown}): these are the flags of another benchmark or id scheme`);
  }
  return { unused: unknown.length, note: `${file}: ${unknown.length} of its ${flags.size} task ids are not tasks of ${source} (${shown}) and were left out` };
}
