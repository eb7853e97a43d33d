/**
 * Fits a table into a terminal width by steps that lose the least first, each taken only while the table is
 * still too wide: wrap headers, hide all-zero columns, show estimates without their intervals, shorten long
 * names, hide optional columns, wrap cells, hide columns from the right. Every lossy step adds a note, so the
 * reader knows what `--wide` (or --json/--csv) would show.
 */
import { columnAlign, formatCell } from './format.js';
import { isInterval, type Cell, type Column, type Table } from './model.js';

export interface FittedTable {
  head: string[];
  rows: string[][];
  aligns: ('left' | 'right')[];
  /** colWidths for cli-table3 when cells must wrap (content width + 2 padding); undefined otherwise. */
  colWidths?: number[];
  notes: string[];
}

/** Display width; our cells hold no East Asian wide characters or escapes, so one per code point. */
export const textWidth = (s: string): number => Math.max(0, ...s.split('\n').map((l) => [...l].length));

/** cli-table3 draws `│ cell │`: one border per column plus one, and one space of padding on each side. */
const tableWidth = (widths: number[]): number => widths.reduce((a, w) => a + w + 3, 1);

/** The narrowest a shortened name gets: enough to tell most system and judge names apart. */
const MIN_TEXT = 12;
/** How far names are shortened before intervals are given up. */
const COMFORTABLE_TEXT = 18;
/** The narrowest a wrapped column gets. */
const MIN_WRAP = 5;

interface Col {
  column: Column;
  header: string;
  cells: Cell[];
  text: string[];
  align: 'left' | 'right';
}

const contentWidth = (c: Col): number => Math.max(textWidth(c.header), ...c.text.map(textWidth));
const widthOf = (cols: Col[]): number => tableWidth(cols.map(contentWidth));

/** Splits a header at spaces into lines no wider than `width` (a word longer than that keeps its own line). */
function wrapWords(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.length - 1;
    if (last >= 0 && textWidth(lines[last]!) + 1 + textWidth(word) <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/** Hard-wraps text to `width` per line (for the last-resort step). */
function hardWrap(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      const chars = [...line];
      const out: string[] = [];
      for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(''));
      return out.length ? out : [''];
    })
    .join('\n');
}

/** The narrowest a name gets before anything is wrapped: a name is shortened, never split over lines. */
const MIN_NAME = 6;
/** Below MIN_TEXT a name keeps its last characters too, which often tell a family apart (codes-1b, codes-7b). */
const KEPT_TAIL = 2;

const shorten = (s: string, width: number): string => {
  const chars = [...s];
  if (chars.length <= width) return s;
  if (width >= MIN_TEXT || width < MIN_NAME) return chars.slice(0, width - 1).join('') + '…';
  return chars.slice(0, width - 1 - KEPT_TAIL).join('') + '…' + chars.slice(-KEPT_TAIL).join('');
};

const isZeroOrEmpty = (c: Cell): boolean => c === null || c === undefined || c === '' || c === 0;

/** Shortens the longest text cells, one character at a time from the widest column, to at least `min`. */
function shortenNames(cols: Col[], width: number, min: number): boolean {
  let changed = false;
  for (;;) {
    if (widthOf(cols) <= width) return changed;
    const text = cols.filter((c) => c.align === 'left' && Math.max(0, ...c.text.map(textWidth)) > min);
    if (!text.length) return changed;
    const cellWidth = (c: Col): number => Math.max(0, ...c.text.map(textWidth));
    const widest = text.reduce((a, b) => (cellWidth(b) > cellWidth(a) ? b : a));
    const target = cellWidth(widest) - 1;
    // From the full names each time: shortening a shortened name would stack ellipses.
    widest.text = widest.cells.map((cell, i) => (textWidth(widest.text[i]!) > target ? shorten(formatCell(cell, widest.column), target) : widest.text[i]!));
    widest.header = widest.header.split('\n').map((l) => shorten(l, Math.max(target, min))).join('\n');
    changed = true;
  }
}

export function fitTable(table: Table, width: number): FittedTable {
  let cols: Col[] = table.columns.map((column) => {
    const cells = table.rows.map((r) => r[column.key]);
    return { column, header: column.header, cells, text: cells.map((c) => formatCell(c, column)), align: columnAlign(column, table.rows) };
  });
  const notes: string[] = [];
  const finish = (shortened: boolean): FittedTable => {
    if (shortened) notes.push('long names shortened');
    return done();
  };
  const done = (): FittedTable => ({ head: cols.map((c) => c.header), rows: table.rows.map((_, i) => cols.map((c) => c.text[i]!)), aligns: cols.map((c) => c.align), notes });
  const fits = (): boolean => widthOf(cols) <= width;
  if (fits()) return done();

  // 1. Headers on several lines, as narrow as their column's cells (lossless).
  for (const c of cols) {
    const cellWidth = Math.max(0, ...c.text.map(textWidth));
    c.header = wrapWords(c.column.short ?? c.header, Math.max(cellWidth, 1));
  }
  if (fits()) return done();

  // 2. Numeric columns that are zero in every row say nothing a note cannot.
  const zero = cols.filter((c) => c.align === 'right' && table.rows.length > 0 && c.cells.every(isZeroOrEmpty));
  if (zero.length) {
    cols = cols.filter((c) => !zero.includes(c));
    notes.push(`${zero.map((c) => c.column.header).join(', ')}: 0 in every row, column hidden`);
    if (fits()) return done();
  }

  // 3. Columns the report marks optional (derivable or secondary), from the right.
  const hidden: string[] = [];
  for (const c of cols.filter((x) => x.column.optional).reverse()) {
    if (fits()) break;
    cols = cols.filter((x) => x !== c);
    hidden.unshift(c.column.header);
  }
  if (hidden.length) notes.push(`columns hidden: ${hidden.join(', ')}`);
  if (fits()) return done();

  // 4. Long names shortened a little, then estimates without their intervals, then names down to MIN_TEXT.
  const unshortened = cols.map((c) => ({ text: c.text, header: c.header }));
  let shortened = shortenNames(cols, width, COMFORTABLE_TEXT);
  if (fits()) return finish(shortened);
  const withIntervals = cols.filter((c) => c.cells.some(isInterval));
  if (withIntervals.length) {
    // Without intervals the full names may fit after all.
    cols.forEach((c, i) => Object.assign(c, unshortened[i]));
    shortened = false;
    for (const c of withIntervals) {
      c.text = c.cells.map((cell) => (isInterval(cell) ? formatCell(cell.estimate, c.column) : formatCell(cell, c.column)));
      c.header = wrapWords((c.column.short ?? c.column.header).replace(/\s*\[[^\]]*\]/, ''), Math.max(1, ...c.text.map(textWidth)));
    }
    notes.push('intervals hidden');
    if (fits()) return finish(shortened);
  }
  shortened = shortenNames(cols, width, MIN_TEXT) || shortened;
  if (fits()) return finish(shortened);
  // Names go on shortening (keeping their ends) before any cell is split over lines: `supers…ql`, never `supersq` / `l`.
  const shortNames = cols.map((c) => ({ text: c.text, header: c.header }));
  for (const c of cols) if (c.align === 'left') c.text = c.cells.map((cell) => formatCell(cell, c.column));
  const keep = shortenNames(cols, width, MIN_NAME);
  // Only when that fits; otherwise wrapping the other columns is the lesser loss, and names stay at MIN_TEXT.
  if (keep && fits()) return finish(true);
  cols.forEach((c, i) => Object.assign(c, shortNames[i]));
  if (shortened) notes.push('long names shortened');

  // 5. Cells wrapped: the widest column loses a character at a time, down to MIN_WRAP; a name column is
  // shortened with an ellipsis instead, down to MIN_NAME, never split over lines.
  const widths = cols.map(contentWidth);
  const isName = cols.map((c) => c.align === 'left');
  while (tableWidth(widths) > width) {
    const floor = (i: number): number => (isName[i] ? MIN_NAME : MIN_WRAP);
    const candidates = widths.map((w, i) => (w > floor(i) ? w : -1));
    const i = candidates.indexOf(Math.max(...candidates));
    if (candidates[i]! < 0) break;
    widths[i]! -= 1;
  }
  cols.forEach((c, i) => {
    if (!isName[i] || contentWidth(c) <= widths[i]!) return;
    c.text = c.cells.map((cell) => shorten(formatCell(cell, c.column), widths[i]!));
    if (!shortened) notes.push('long names shortened');
    shortened = true;
  });
  // 6. Still too many columns: hide them from the right (the first one always stays).
  const dropped: string[] = [];
  while (tableWidth(widths) > width && cols.length > 1) {
    dropped.unshift(cols.pop()!.column.header);
    widths.pop();
  }
  if (dropped.length) notes.push(`columns hidden: ${dropped.join(', ')}`);
  cols.forEach((c, i) => {
    c.header = hardWrap(c.header, widths[i]!);
    c.text = c.text.map((t) => hardWrap(t, widths[i]!));
  });
  return { ...done(), colWidths: widths.map((w) => w + 2) };
}
