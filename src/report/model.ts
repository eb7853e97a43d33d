/**
 * The report document model shared by every command.
 *
 * A command's report module (src/report/<verb>*.ts) builds one `Report` (plain data, no
 * formatting decisions) and the command hands it to `emitReport` (src/report/output.ts),
 * which renders it as a terminal table (default), CSV, Markdown or a self-contained HTML page. `--json` does not use the Report at all:
 * it prints the command's own JSON object, so machine output is never shaped by layout.
 *
 * Example (a report module):
 * ```ts
 * const report: Report = {
 *   title: 'Execution accuracy',
 *   meta: { benchmark: 'spider dev', tasks: 1034 },
 *   sections: [{
 *     title: 'Systems',
 *     table: {
 *       columns: [
 *         { key: 'system', header: 'System' },
 *         { key: 'accuracy', header: 'EX', format: 'percent' },   // cell: a fraction, or an Interval
 *         { key: 'n', header: 'Tasks', format: 'integer' },
 *       ],
 *       rows: [{ system: 'a', accuracy: wilson(700, 1034), n: 1034 }],
 *     },
 *     notes: ['Missing predictions count as wrong.'],
 *   }],
 * };
 * ```
 * Numbers stay raw (fractions, not percents): renderers format them by the column's
 * `format`, and CSV writes them unformatted so spreadsheets get exact values.
 */

import type { ExplorerData } from './explorer-model.js';
import type { Provenance } from './provenance.js';

/** An estimate with its interval; any object with these fields (e.g. stats' `Interval`) fits. */
export interface IntervalValue {
  estimate: number;
  low: number;
  high: number;
  /** Method name (e.g. "wilson"); shown in HTML tooltips, not in table cells. */
  method?: string;
}

/**
 * One table cell. `null`/`undefined` render as empty everywhere; a NaN number as a dash (–) in text formats.
 * An `IntervalValue` renders as `74.9% [72.7, 77.0]` in text formats (the unit once, at the estimate) and expands to three
 * CSV columns (`<header>`, `<header> low`, `<header> high`).
 */
export type Cell = string | number | boolean | null | undefined | IntervalValue;

/**
 * How numbers in a column are shown in text formats (CSV keeps them raw):
 * - `percent`: a fraction as a percentage, `0.7491` → `74.9%` (`digits` decimals, default 1)
 * - `points`: a signed difference of fractions in percentage points, `0.023` → `+2.3`
 * - `fixed`: `digits` decimals (default 3); `integer`: rounded, thousands separators off
 * - `pvalue`: `0.46`, `0.012`, `<0.001` (see formatPValue); `text`: as is (default for strings)
 */
export type CellFormat = 'percent' | 'points' | 'fixed' | 'integer' | 'pvalue' | 'text';

export interface Column {
  /** Property name in each row. */
  key: string;
  header: string;
  format?: CellFormat;
  digits?: number;
  /** Defaults: numbers and intervals right-aligned, text left. */
  align?: 'left' | 'right';
  /** A shorter header for a terminal too narrow for the table (e.g. 'Timeouts' → 'T/O'). */
  short?: string;
  /** The terminal may hide this column when the table does not fit (--wide and other formats keep it). */
  optional?: boolean;
}

export interface Table {
  columns: Column[];
  rows: Record<string, Cell>[];
}

/** One point of an interval ("forest") plot: rows top to bottom in the given order. */
export interface IntervalPoint {
  label: string;
  value: number;
  low?: number;
  high?: number;
  /** Extra tooltip text. */
  detail?: string;
  /** The rank printed before the label (default: the row's position); the tables' competition rank, so ties read "7, 7, 9" in both. */
  rank?: number;
  /** A second value drawn as a hollow diamond (e.g. dev score, clean-subset accuracy); see IntervalPlot.secondaryLabel. */
  secondary?: number;
}

/**
 * Accuracy-by-rank plot: one row per item, a dot (`circle.mark[data-label]`) with its CI bar,
 * and an optional shaded band (e.g. the g* band `[top − g*, top]`: points inside it are
 * within the noise bound of rank 1).
 */
export interface IntervalPlot {
  kind: 'interval';
  title?: string;
  axisLabel: string;
  /** Values are fractions shown as percentages (true) or plain numbers. */
  percent: boolean;
  points: IntervalPoint[];
  band?: { low: number; high: number; label: string };
  /** Legend text for the dots (e.g. "test EX, 95% Wilson bar"). */
  valueLabel?: string;
  /** Legend text for the hollow diamonds; needed when points carry `secondary`. */
  secondaryLabel?: string;
}

/**
 * A square matrix (heat-map), e.g. pairwise significance. `value` in [-1, 1] picks a diverging
 * colour (positive = the row beats the column); `strong` cells are drawn saturated
 * (significant), others pale.
 */
export interface MatrixCell {
  value: number;
  strong: boolean;
  /** Short text drawn in the cell (keep it to ~4 characters). */
  text?: string;
  /** Tooltip. */
  title?: string;
}

export interface MatrixPlot {
  kind: 'matrix';
  title?: string;
  labels: string[];
  /** The rank printed for each row and column (default: the position); the tables' competition ranks. */
  ranks?: number[];
  /** cells[row][col]; null = no value (the diagonal). */
  cells: (MatrixCell | null)[][];
  /** One line explaining the colours. */
  legend: string;
}

export type Plot = IntervalPlot | MatrixPlot;

export interface Section {
  title: string;
  /** Paragraphs shown before the table. */
  notes?: string[];
  table?: Table;
  /** Plots appear only in HTML; text formats skip them. */
  plots?: Plot[];
  /**
   * A long detail table (e.g. every pair of systems): the terminal renderer prints only the
   * title and a pointer to --md/--html/--json; Markdown and HTML show it in full.
   */
  detail?: boolean;
}

export interface Report {
  title: string;
  /** The per-item explorer (score, judge, audit with --html); only the HTML page shows it. */
  explorer?: ExplorerData;
  /** Key facts shown under the title (inputs, seed, N, method names). */
  meta?: Record<string, Cell>;
  sections: Section[];
  /** Where the report came from (src/report/provenance.ts): the Markdown and HTML footers; the API sets it. */
  provenance?: Provenance;
}

export function isInterval(c: Cell): c is IntervalValue {
  return typeof c === 'object' && c !== null && typeof (c as IntervalValue).estimate === 'number';
}
