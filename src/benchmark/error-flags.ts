import { parse as parseCsv } from 'csv-parse/sync';
import { InputFileError } from '../errors.js';
import { readText } from './read-json.js';

/**
 * Reads per-task gold-error flags in SALUS's prediction CSV format: header `task_id,predicted_label`,
 * label 0 = the task's gold is predicted WRONG (flagged), 1 = predicted fine.
 * Returns taskId → flagged. Task ids stay strings, matching item records.
 */
export function readErrorFlags(file: string): Map<string, boolean> {
  const text = readText(file);
  let rows: { record: Record<string, string>; info: { lines: number } }[];
  try {
    rows = parseCsv(text, { columns: true, skip_empty_lines: true, trim: true, info: true }) as typeof rows;
  } catch (e) {
    throw new InputFileError(file, undefined, `not a CSV file (${(e as Error).message})`);
  }
  const first = rows[0]?.record;
  if (!first || !('task_id' in first) || !('predicted_label' in first)) {
    throw new InputFileError(file, 1, 'expected a header with columns task_id,predicted_label (SALUS flags: 0 = wrong gold)');
  }
  const flags = new Map<string, boolean>();
  for (const { record, info } of rows) {
    const id = record.task_id ?? '';
    const label = record.predicted_label ?? '';
    if (id === '') throw new InputFileError(file, info.lines, 'empty task_id');
    if (label !== '0' && label !== '1') {
      throw new InputFileError(file, info.lines, `predicted_label must be 0 (wrong gold) or 1 (fine), got "${label}"`);
    }
    if (flags.has(id)) throw new InputFileError(file, info.lines, `task_id ${id} appears twice`);
    flags.set(id, label === '0');
  }
  return flags;
}
