import Papa from 'papaparse';

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

/**
 * Whether a record's text has a quote inside a cell that does not start with one (`1, "a, b"`: a
 * space before the quote). papaparse would read that quote as text and split the cell at its comma,
 * silently; csv-parse called it an invalid opening quote, and so does this.
 */
function quoteInUnquotedCell(raw: string): boolean {
  let i = 0;
  while (i < raw.length) {
    if (raw[i] === '"') {
      // A quoted cell: to its closing quote (a doubled quote stays inside); papaparse checks the rest.
      for (i++; i < raw.length; i++) {
        if (raw[i] === '"') {
          if (raw[i + 1] !== '"') break;
          i++;
        }
      }
      while (i < raw.length && raw[i] !== ',') i++;
    } else {
      for (; i < raw.length && raw[i] !== ','; i++) if (raw[i] === '"') return true;
    }
    i++;
  }
  return false;
}

/**
 * CSV as RFC 4180 writes it (comma, double quotes doubled inside quoted cells, LF or CRLF), parsed
 * by papaparse, which read the bundled DIN-SQL-sized CSVs in less than half csv-parse's CPU time
 * (csv-parse: ~0.1 s each, cold): records with the lines they span, blank lines skipped, records of any
 * length, a leading BOM dropped. A quote inside a cell that does not start with one is an error,
 * as it was with csv-parse, unless `lenientQuotes` (then it is text).
 */
export function parseCsvRows(text: string, opts: { lenientQuotes?: boolean } = {}): CsvRow[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows: CsvRow[] = [];
  // The line at `pos`, counted forward only, so the whole file is scanned once.
  let pos = 0;
  let line = 1;
  const lineAt = (to: number): number => {
    for (let i = src.indexOf('\n', pos); i !== -1 && i < to; i = src.indexOf('\n', i + 1)) line++;
    pos = to;
    return line;
  };
  let failure: CsvSyntaxError | undefined;
  Papa.parse<string[]>(src, {
    ...lineEnding(src),
    delimiter: ',',
    quoteChar: '"',
    escapeChar: '"',
    skipEmptyLines: true,
    step: (result, parser) => {
      const end = result.meta.cursor;
      // The record starts at the first character after the line breaks that ended the last one.
      let start = pos;
      while (start < end && (src[start] === '\n' || src[start] === '\r')) start++;
      let last = end;
      while (last > start && (src[last - 1] === '\n' || src[last - 1] === '\r')) last--;
      const first = lineAt(start);
      const endLine = lineAt(last);
      lineAt(end);
      const error = result.errors.find((e) => e.type === 'Quotes');
      const record = src.slice(start, last);
      const stray = !error && !opts.lenientQuotes && record.includes('"') && quoteInUnquotedCell(record);
      if (error || stray) {
        const what = error ? error.message : 'a quote inside a cell that does not start with one (quote the whole cell, with no space before the quote)';
        failure = new CsvSyntaxError(`${what} (record starting on line ${first})`, first);
        parser.abort();
        return;
      }
      rows.push({ cells: result.data, line: first, endLine });
    },
  });
  if (failure) throw failure;
  return rows;
}

/** How far papaparse looks for the line ending it guesses (papaparse.js guessLineEndings: 1 MB). */
const GUESS_CHARS = 1024 * 1024;

/**
 * papaparse's guess of the line ending when it is certain: with no CR among the characters it looks
 * at, it guesses LF, and that is given here. Its guess copies that text, strips every quoted section
 * with a regular expression and splits it twice (~5 ms per DIN-SQL-sized CSV); any CR is left to it.
 */
function lineEnding(text: string): { newline?: '\n' } {
  const cr = text.indexOf('\r');
  return cr === -1 || cr >= GUESS_CHARS ? { newline: '\n' } : {};
}

/**
 * A record's cells keyed by the header's `names` (csv-parse's `columns`): a short record lacks the
 * last names, a long one's extra cells are dropped.
 */
export function cellsByName(names: readonly string[], row: CsvRow): Record<string, string> {
  const out: Record<string, string> = {};
  for (let c = 0; c < names.length && c < row.cells.length; c++) out[names[c]!] = row.cells[c]!;
  return out;
}
