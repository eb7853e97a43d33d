import type { Cell, ExecResult } from '../execution/types.js';

export interface PreviewOptions {
  /** Rows shown (default 20). */
  maxRows?: number;
  /** Characters kept per cell or column name before the cut marker (default 100). */
  maxCellChars?: number;
}

export const DEFAULT_PREVIEW_ROWS = 20;

/**
 * A deterministic text preview of a result for the prompts: the first R rows in the order
 * SQLite returned them, the true row count, long cells cut with a marker saying how much was
 * cut. Every line starts with its own label (`rows:`, `columns:`, `row 3:`), and cells are
 * one line each with `|` and `\` escaped, so no cell or column name can start a line that
 * imitates a section of the prompt or split into fake columns. Same result → same text →
 * same cache key.
 */
export function previewResult(r: ExecResult, opts: PreviewOptions = {}): string {
  const maxChars = opts.maxCellChars ?? 100;
  if (r.status === 'timeout') return `timed out${r.error ? `: ${formatCell(r.error, 500)}` : ''}`;
  if (r.status === 'error') return `error: ${formatCell(r.error ?? 'unknown error', 500)}`;
  const maxRows = opts.maxRows ?? DEFAULT_PREVIEW_ROWS;
  const n = r.rows.length;
  const head = n === 0 ? 'rows: 0 (the query returned no rows)' : n <= maxRows ? `rows: ${n} (all shown)` : `rows: ${n} (first ${maxRows} shown)`;
  const lines = [head, `columns: ${r.columns.map((c) => formatCell(c, maxChars)).join(' | ')}`];
  r.rows.slice(0, maxRows).forEach((row, i) => lines.push(`row ${i + 1}: ${row.map((c) => formatCell(c, maxChars)).join(' | ')}`));
  if (n > maxRows) lines.push(`not shown: ${n - maxRows} more rows`);
  return lines.join('\n');
}

export function formatCell(c: Cell, maxChars = 100): string {
  let s: string;
  if (c === null) s = 'NULL';
  else if (typeof c === 'bigint') s = c.toString();
  else if (typeof c === 'number') s = Number.isInteger(c) ? c.toFixed(0) : String(c);
  else if (typeof c === 'string') s = c.replace(/[\\|]/g, (ch) => `\\${ch}`).replace(/\r?\n|\r/g, '\\n').replace(/\t/g, '\\t');
  else s = `<blob ${c.byteLength} bytes>`;
  return s.length > maxChars ? `${s.slice(0, maxChars)}…[+${s.length - maxChars} chars]` : s;
}
