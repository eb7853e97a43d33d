import { decodeRows } from './cell-codec.js';
import type { Cell, ExecResult } from './types.js';

/**
 * The first rows of a result, cut to a bounded size for a report page: at most PREVIEW_ROWS rows and
 * PREVIEW_COLUMNS columns, each cell at most PREVIEW_CELL_CHARS characters. `rows` holds what a
 * reader sees (text), `total` how many rows the whole result has.
 */
export interface ResultPreview {
  status: ExecResult['status'];
  columns: string[];
  rows: string[][];
  total: number;
  /** Columns beyond those shown. */
  moreColumns?: number;
  error?: string;
}

export const PREVIEW_ROWS = 5;
export const PREVIEW_COLUMNS = 8;
export const PREVIEW_CELL_CHARS = 80;

const cut = (text: string): string => (text.length > PREVIEW_CELL_CHARS ? `${text.slice(0, PREVIEW_CELL_CHARS - 1)}…` : text);

/** A cell as a reader sees it: NULL by name, a blob by its size (its bytes are no text), long text cut. */
export function cellText(v: Cell): string {
  if (v === null) return 'NULL';
  if (v instanceof Uint8Array) return `<blob ${v.length} bytes>`;
  return cut(String(v));
}

/** A preview from rows already decoded (the first ones suffice) and the result's row count. */
export function previewFromRows(status: ExecResult['status'], columns: string[], head: Cell[][], total: number, error?: string): ResultPreview {
  const shown = columns.slice(0, PREVIEW_COLUMNS);
  return {
    status,
    columns: shown.map(cut),
    rows: head.slice(0, PREVIEW_ROWS).map((r) => r.slice(0, PREVIEW_COLUMNS).map(cellText)),
    total,
    ...(columns.length > shown.length ? { moreColumns: columns.length - shown.length } : {}),
    ...(error !== undefined ? { error: cut(error) } : {}),
  };
}

/** The preview of a result held in memory. */
export function previewOf(r: ExecResult): ResultPreview {
  return previewFromRows(r.status, r.columns, r.rows, r.rows.length, r.error);
}

/** The preview of a result from the run store's JSON of its first rows (cell-codec format). */
export function previewFromStored(status: ExecResult['status'], columns: string[], headJson: string, total: number, error?: string): ResultPreview {
  return previewFromRows(status, columns, decodeRows(headJson), total, error);
}
