import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import { parseCsvRows } from '../../src/benchmark/csv-rows.js';

/** Each file's rows, cell for cell and with the line each record ends on, as csv-parse (a second, independent reader) gives them. */
export function expectSameAsCsvParse(files: string[]): void {
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const reference = parse(text, { skip_empty_lines: true, relax_column_count: true, bom: true, info: true }) as unknown as { record: string[]; info: { lines: number } }[];
    const rows = parseCsvRows(text);
    expect(rows.map((r) => r.cells), f).toEqual(reference.map((r) => r.record));
    expect(rows.map((r) => r.endLine), f).toEqual(reference.map((r) => r.info.lines));
  }
}
