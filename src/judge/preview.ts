import type { Cell, ExecResult } from '../execution/types.js';

export interface PreviewOptions {
  /** Rows shown (default 20). */
  maxRows?: number;
  /** Characters kept per cell before the cut marker (default 100). */
  maxCellChars?: number;
}

export const DEFAULT_PREVIEW_ROWS = 20;

/**
 * A deterministic text preview of a result for the prompts: the first R rows
 * in the order SQLite returned them, the true row count, long cells cut with a
 * marker saying how much was cut. Same result → same text → same cache key.
 */
export function previewResult(r: ExecResult, opts: PreviewOptions = {}): string {
  if (r.status === 'timeout') return `The query timed out${r.error ? `: ${r.error}` : ''}.`;
  if (r.status === 'error') return `The query failed with an error: ${r.error ?? 'unknown error'}`;
  const maxRows = opts.maxRows ?? DEFAULT_PREVIEW_ROWS;
  const maxChars = opts.maxCellChars ?? 100;
  const n = r.rows.length;
  const head = n === 0 ? 'The query returned no rows.' : n <= maxRows ? `Rows: ${n} (all shown).` : `Rows: ${n} (first ${maxRows} shown).`;
  const lines = [head, `Columns: ${r.columns.map((c) => formatCell(c, maxChars)).join(' | ')}`];
  for (const row of r.rows.slice(0, maxRows)) lines.push(row.map((c) => formatCell(c, maxChars)).join(' | '));
  if (n > maxRows) lines.push(`… ${n - maxRows} more rows not shown`);
  return lines.join('\n');
}

export function formatCell(c: Cell, maxChars = 100): string {
  let s: string;
  if (c === null) s = 'NULL';
  else if (typeof c === 'bigint') s = c.toString();
  else if (typeof c === 'number') s = Number.isInteger(c) ? c.toFixed(0) : String(c);
  else if (typeof c === 'string') s = c.replace(/\r?\n/g, '\\n').replace(/\t/g, '\\t');
  else s = `<blob ${c.byteLength} bytes>`;
  return s.length > maxChars ? `${s.slice(0, maxChars)}…[+${s.length - maxChars} chars]` : s;
}
