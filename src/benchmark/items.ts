import { InputFileError } from '../errors.js';
import { parseJsonLines, readText } from './read-json.js';
import type { ItemRecord } from './types.js';
import { writeOutputFile } from './write-file.js';

/** Reads a per-item JSONL file (`score --items`, `judge --items`, `import rose --out`). */
export function readItems(file: string): ItemRecord[] {
  const lines = parseJsonLines(file, readText(file), 'per-item record');
  // An empty file is a run that wrote nothing (or the wrong file): it would rank no system, silently.
  if (lines.length === 0) throw new InputFileError(file, undefined, 'holds no per-item records (one JSON object per line, from score/judge --items or import rose --out)');
  const firstLine = new Map<string, number>();
  return lines.map(({ value: r, line }) => {
    if (typeof r.system !== 'string') throw new InputFileError(file, line, 'missing string field "system"');
    if (typeof r.taskId !== 'string' && typeof r.taskId !== 'number') throw new InputFileError(file, line, 'missing field "taskId"');
    if (typeof r.correct !== 'boolean' && r.correct !== null) throw new InputFileError(file, line, 'field "correct" must be true or false');
    // One verdict per (system, subset, task): a second would be counted twice or replace the first.
    const key = JSON.stringify([r.system, typeof r.subset === 'string' ? r.subset : '', String(r.taskId)]);
    const first = firstLine.get(key);
    if (first !== undefined) {
      throw new InputFileError(file, line, `system "${r.system}" has a second record for task ${String(r.taskId)}${typeof r.subset === 'string' ? ` of subset ${r.subset}` : ''} (lines ${first} and ${line})`);
    }
    firstLine.set(key, line);
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
