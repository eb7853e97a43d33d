import { parse } from 'csv-parse/sync';

/** One CSV record and the file lines it spans (a quoted cell may hold line breaks). */
export interface CsvRow {
  cells: string[];
  /** 1-based line the record starts on. */
  line: number;
  /** Line it ends on. */
  endLine: number;
}

/** Malformed quoting, with the line of the record it was found in. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** csv-parse's error codes for malformed quoting, and what to fix. */
const QUOTE_ERRORS: Record<string, string> = {
  INVALID_OPENING_QUOTE: 'a quote inside a cell that does not start with one (quote the whole cell, with no space before the quote)',
  CSV_INVALID_CLOSING_QUOTE: 'text after the closing quote of a quoted cell',
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell that is never closed',
};

const isBreak = (c: number): boolean => c === 10 || c === 13;

/**
 * CSV as RFC 4180 writes it (comma, double quotes doubled inside quoted cells, LF, CRLF or CR),
 * parsed by csv-parse, a state machine linear in the text (papaparse, used before, searched for the
 * next comma and line break again after every quoted cell: a file without them further on took
 * 84 s for 6 MB). Records with the lines they span, blank lines skipped, a leading BOM dropped.
 * A quote inside a cell that does not start with one is an error unless `lenientQuotes` (then it
 * is text). A record with more cells than the header (the first record) is an error unless
 * `extraCells`: the extra cells were dropped silently before.
 */
export function parseCsvRows(text: string, opts: { lenientQuotes?: boolean; extraCells?: boolean } = {}): CsvRow[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let records: string[][];
  try {
    // csv-parse's `info`/`raw` (where each record ends) cost it several times its parse: lines
    // are found by recordLines instead.
    records = parse(src, { relax_column_count: true, relax_quotes: opts.lenientQuotes ?? false, skip_empty_lines: true }) as string[][];
  } catch (e) {
    // The record it failed in follows the `records` it read: its first line is the one to fix.
    const err = e as { code?: string; message?: string; lines?: number; records?: number };
    const what = (err.code && QUOTE_ERRORS[err.code]) ?? err.message ?? String(e);
    const k = err.records ?? 0;
    const line = recordLines(src, k + 1)[k]?.[0] ?? err.lines ?? 1;
    throw new CsvSyntaxError(`${what} (record starting on line ${line})`, line);
  }
  const lines = recordLines(src, records.length);
  const rows: CsvRow[] = [];
  records.forEach((cells, i) => {
    const [line, endLine] = lines[i] ?? [1, 1];
    const width = rows[0]?.cells.length;
    if (!opts.extraCells && width !== undefined && cells.length > width) {
      throw new CsvSyntaxError(`${cells.length} cells on the record starting on line ${line}, but the header has ${width}`, line);
    }
    rows.push({ cells, line, endLine });
  });
  return rows;
}

/**
 * The first and last line of each of the first `n` records, in one pass: a record ends at a line
 * break outside quotes, blank lines between records are skipped. Once csv-parse has accepted the
 * quoting, every quote opens or closes a quoted cell or is one of a doubled pair, so counting them
 * tells inside from outside. (Lenient quotes can mislead it; their only caller ignores lines.)
 */
function recordLines(src: string, n: number): [number, number][] {
  const out: [number, number][] = [];
  let line = 1;
  let i = 0;
  while (out.length < n && i < src.length) {
    while (i < src.length && isBreak(src.charCodeAt(i))) if (src.charCodeAt(i++) === 10) line++;
    const first = line;
    let quoted = false;
    for (; i < src.length; i++) {
      const c = src.charCodeAt(i);
      if (c === 34) quoted = !quoted;
      else if (isBreak(c) && !quoted) break;
      else if (c === 10) line++;
    }
    out.push([first, line]);
  }
  return out;
}

/**
 * A record's cells keyed by the header's `names` (csv-parse's `columns`): a short record lacks the
 * last names (parseCsvRows refuses a long one unless asked).
 */
export function cellsByName(names: readonly string[], row: CsvRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (let c = 0; c < names.length && c < row.cells.length; c++) out[names[c]!] = row.cells[c]!;
  return out;
}
