import { isInterval, type Cell, type Column, type Report } from './model.js';

/** A fraction as a percentage: `0.7491` → `74.9%`. */
export function formatPercent(x: number, digits = 1): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : '–';
}

/** A difference of fractions in percentage points, signed, never "-0.0": `0.0509` → `+5.09`. */
export function formatPoints(x: number, digits = 2, sign = true): string {
  if (!Number.isFinite(x)) return '–';
  let s = (x * 100).toFixed(digits);
  if (/^-0\.?0*$/.test(s)) s = s.slice(1);
  return sign && x > 0 && !/^0\.?0*$/.test(s) ? `+${s}` : s;
}

/**
 * A p-value: two decimals from 0.1 (`0.456` → `0.46`), two significant figures below (`0.0123` → `0.012`),
 * `<0.001` below 0.001 (more digits only suggest false precision).
 */
export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) return '–';
  if (p < 0.001) return '<0.001';
  if (p >= 0.1) return p.toFixed(2);
  return p.toPrecision(2);
}

function formatNumber(x: number, column: Column, inInterval: boolean): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? '–' : x > 0 ? '∞' : '−∞';
  switch (column.format) {
    case 'percent':
      // Inside "[low, high]" the % sign is repeated only once, at the estimate.
      return inInterval ? (x * 100).toFixed(column.digits ?? 1) : formatPercent(x, column.digits ?? 1);
    case 'points':
      return formatPoints(x, column.digits ?? 1, !inInterval);
    case 'fixed':
      return x.toFixed(column.digits ?? 3);
    case 'integer':
      return String(Math.round(x));
    case 'pvalue':
      return formatPValue(x);
    default:
      if (Number.isInteger(x)) return String(x);
      return String(Number(x.toPrecision(column.digits ?? 4)));
  }
}

/** A cell as display text for terminal, Markdown and HTML tables. */
export function formatCell(cell: Cell, column: Column): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  if (typeof cell === 'number') return formatNumber(cell, column, false);
  if (isInterval(cell)) {
    const est = formatNumber(cell.estimate, column, false);
    return `${est} [${formatNumber(cell.low, column, true)}, ${formatNumber(cell.high, column, true)}]`;
  }
  return String(cell);
}

/** Right-align numbers and intervals unless the column says otherwise. */
export function columnAlign(column: Column, rows: Record<string, Cell>[]): 'left' | 'right' {
  if (column.align) return column.align;
  if (column.format && column.format !== 'text') return 'right';
  const first = rows.map((r) => r[column.key]).find((c) => c !== null && c !== undefined);
  return typeof first === 'number' || isInterval(first) ? 'right' : 'left';
}

/** Meta values as text (same rules as cells with a default column). */
export function formatMeta(value: Cell): string {
  return formatCell(value, { key: '', header: '' });
}

/** The meta entries every renderer shows: those with a value. */
export function shownMeta(report: Report): [string, Cell][] {
  return Object.entries(report.meta ?? {}).filter(([, v]) => v !== undefined && v !== null);
}
