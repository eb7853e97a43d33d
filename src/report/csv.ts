import { csvField } from '../benchmark/csv-field.js';
import { isInterval, type Cell, type Report, type Table } from './model.js';

export { csvField, neutralizeFormula } from '../benchmark/csv-field.js';

/** `raw`: cells as they are, formula-like ones too (`--csv-raw`). */
export interface CsvOptions {
  raw?: boolean;
}

function rawValue(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  if (typeof cell === 'string') return cell;
  return String(cell.estimate);
}

/**
 * One table as CSV with raw values (fractions, full precision), CRLF-free (`\n` line ends).
 * A column holding intervals becomes three columns: `<header>`, `<header> low`, `<header> high`.
 */
export function renderCsvTable(table: Table, opts: CsvOptions = {}): string {
  const field = (v: string): string => csvField(v, opts.raw);
  const intervalCols = new Set(
    table.columns.filter((c) => table.rows.some((r) => isInterval(r[c.key]))).map((c) => c.key),
  );
  const header: string[] = [];
  for (const c of table.columns) {
    header.push(c.header);
    if (intervalCols.has(c.key)) header.push(`${c.header} low`, `${c.header} high`);
  }
  const lines = [header.map(field).join(',')];
  for (const row of table.rows) {
    const fields: string[] = [];
    for (const c of table.columns) {
      const cell = row[c.key];
      fields.push(rawValue(cell));
      if (intervalCols.has(c.key)) {
        fields.push(isInterval(cell) ? String(cell.low) : '', isInterval(cell) ? String(cell.high) : '');
      }
    }
    lines.push(fields.map(field).join(','));
  }
  return lines.join('\n') + '\n';
}

/**
 * CSV carries ONE table, the report's main one (the first section that has a table), so the
 * output parses as a single CSV. Everything else is in `--json`, `--md` and `--html`.
 */
export function renderCsv(report: Report, opts: CsvOptions = {}): string {
  const main = report.sections.find((s) => s.table)?.table;
  return main ? renderCsvTable(main, opts) : '';
}
