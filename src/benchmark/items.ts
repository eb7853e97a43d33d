import { InputFileError } from '../errors.js';
import { parseJsonLines, readText } from './read-json.js';
import type { ItemRecord } from './types.js';
import { writeOutputFile } from './write-file.js';

/** Reads a per-item JSONL file (`score --items`, `judge --items`, `import rose --out`). */
export function readItems(file: string): ItemRecord[] {
  return parseJsonLines(file, readText(file), 'per-item record').map(({ value: r, line }) => {
    if (typeof r.system !== 'string') throw new InputFileError(file, line, 'missing string field "system"');
    if (typeof r.taskId !== 'string' && typeof r.taskId !== 'number') throw new InputFileError(file, line, 'missing field "taskId"');
    if (typeof r.correct !== 'boolean' && r.correct !== null) throw new InputFileError(file, line, 'field "correct" must be true or false');
    return { ...r, system: r.system, taskId: String(r.taskId), correct: r.correct as boolean | null };
  });
}

function formatItems(records: Iterable<ItemRecord>): string {
  let s = '';
  for (const r of records) s += JSON.stringify(r) + '\n';
  return s;
}

/** Writes per-item records as JSONL; `flag` names the option in an error (`--items`, `--out`). */
export function writeItems(file: string, records: Iterable<ItemRecord>, flag = '--items'): void {
  writeOutputFile(flag, file, formatItems(records));
}
