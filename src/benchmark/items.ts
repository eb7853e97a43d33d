import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputFileError } from '../errors.js';
import type { ItemRecord } from './types.js';

/** Reads a per-item JSONL file (`score --items`, `judge --items`, `import rose --out`). */
export function readItems(file: string): ItemRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputFileError(file, undefined, `cannot read: ${(e as Error).message}`);
  }
  const out: ItemRecord[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      throw new InputFileError(file, i + 1, 'not a JSON object (expected one per-item record per line)');
    }
    if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) {
      throw new InputFileError(file, i + 1, 'not a JSON object');
    }
    const r = rec as Record<string, unknown>;
    if (typeof r.system !== 'string') throw new InputFileError(file, i + 1, 'missing string field "system"');
    if (typeof r.taskId !== 'string' && typeof r.taskId !== 'number') {
      throw new InputFileError(file, i + 1, 'missing field "taskId"');
    }
    if (typeof r.correct !== 'boolean' && r.correct !== null) {
      throw new InputFileError(file, i + 1, 'field "correct" must be true or false');
    }
    out.push({ ...r, system: r.system, taskId: String(r.taskId), correct: r.correct as boolean });
  });
  return out;
}

function formatItems(records: Iterable<ItemRecord>): string {
  let s = '';
  for (const r of records) s += JSON.stringify(r) + '\n';
  return s;
}

export function writeItems(file: string, records: Iterable<ItemRecord>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, formatItems(records));
}
