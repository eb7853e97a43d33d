import { InputFileError } from '../errors.js';
import { CsvSyntaxError, parseCsvRows, type CsvRow } from './csv-rows.js';

/** Which columns of an `id,label` CSV to read and how its labels are spelled. */
export interface IdLabelCsvFormat<T> {
  /** Accepted id column names; the first the header has is used. */
  idColumns: readonly string[];
  /** Accepted label column names; the first the header has is used. */
  labelColumns: readonly string[];
  /** undefined: not a valid label. Gets the trimmed cell. */
  parseLabel: (raw: string) => T | undefined;
  /** The valid labels, for the error message (e.g. "0/1 or true/false"). */
  labelsHint: string;
  /** Appended to the header error (e.g. what the format is). */
  headerHint?: string;
  /** Further columns to keep per task when the header has them (e.g. SALUS's error_type). */
  extraColumns?: readonly string[];
}

export interface IdLabelCsv<T> {
  idColumn: string;
  labelColumn: string;
  /** Task id → label, in file order. */
  labels: Map<string, T>;
  /** Task id → the trimmed, non-empty cells of the requested extra columns the header has. */
  extras: Map<string, Record<string, string>>;
}

/**
 * Reads a CSV of per-task labels: a header naming an id and a label column, then one row per task
 * (cells trimmed, other columns ignored). Errors name the file line the row ends on, so quoted
 * fields spanning several lines do not shift them.
 */
export function parseIdLabelCsv<T>(file: string, text: string, format: IdLabelCsvFormat<T>): IdLabelCsv<T> {
  let rows: CsvRow[];
  try {
    rows = parseCsvRows(text);
  } catch (e) {
    if (!(e instanceof CsvSyntaxError)) throw e;
    throw new InputFileError(file, e.line, `not valid CSV: ${e.message}`);
  }
  if (rows.length === 0) throw new InputFileError(file, undefined, 'is empty: expected a CSV header naming a task id and a label column, then one row per task');
  const header = (rows[0]?.cells ?? []).map((h) => h.trim());
  const idColumn = format.idColumns.find((c) => header.includes(c));
  const labelColumn = format.labelColumns.find((c) => header.includes(c));
  if (!idColumn || !labelColumn) {
    throw new InputFileError(
      file,
      rows[0]?.endLine ?? 1,
      `CSV header needs a task id column (${format.idColumns.join(' | ')}) and a label column (${format.labelColumns.join(' | ')}); ` +
        `found: ${header.join(', ')}${format.headerHint ? ` (${format.headerHint})` : ''}`,
    );
  }
  const idIdx = header.indexOf(idColumn);
  const labelIdx = header.indexOf(labelColumn);
  if (rows.length < 2) throw new InputFileError(file, undefined, `has a header but no rows: one row per task (${idColumn},${labelColumn}) expected`);
  const labels = new Map<string, T>();
  const lineOf = new Map<string, number>();
  const extras = new Map<string, Record<string, string>>();
  const extraIdx = (format.extraColumns ?? []).map((c) => [c, header.indexOf(c)] as const).filter(([, i]) => i >= 0);
  for (const { cells: record, endLine } of rows.slice(1)) {
    const id = (record[idIdx] ?? '').trim();
    if (id === '') throw new InputFileError(file, endLine, `empty ${idColumn}`);
    const raw = (record[labelIdx] ?? '').trim();
    const label = format.parseLabel(raw);
    if (label === undefined) throw new InputFileError(file, endLine, `${labelColumn} must be ${format.labelsHint} (got "${raw}")`);
    if (labels.has(id)) throw new InputFileError(file, endLine, `${idColumn} ${id} appears twice (lines ${lineOf.get(id)} and ${endLine})`);
    labels.set(id, label);
    lineOf.set(id, endLine);
    const cells: Record<string, string> = {};
    for (const [c, i] of extraIdx) {
      const v = (record[i] ?? '').trim();
      if (v !== '') cells[c] = v;
    }
    if (Object.keys(cells).length > 0) extras.set(id, cells);
  }
  return { idColumn, labelColumn, labels, extras };
}
