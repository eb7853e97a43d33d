import { InputFileError } from '../errors.js';
import { cellsByName, CsvSyntaxError, parseCsvRows, type CsvRow } from './csv-rows.js';
import { readText } from './read-json.js';

/** One published leaderboard row, scores as fractions. */
export interface BoardRow {
  name: string;
  dev: number;
  test: number;
  /** 1-based CSV line, for messages. */
  line: number;
}

export interface BoardFile {
  rows: BoardRow[];
  /** Rows left out because dev or test is empty or not a plain percentage (e.g. human performance), with the reason. */
  skipped: { name: string; line: number; reason: string }[];
  /** Names that occurred more than once and were made unique as `name (2)`, `name (3)`. */
  renamed: { from: string; to: string; line: number }[];
}

type Score = { value: number } | { missing: string };

/**
 * "77.64" or "77.64%" → 0.7764. Empty or a dash → missing. An annotated cell such as the BIRD
 * site's "New Dev 68.77" (a score on a different dev release) is missing too, quoted in the
 * reason: it is not comparable with the other rows, and dropping it silently would hide that.
 */
function percent(column: string, raw: string | undefined): Score {
  const s = (raw ?? '').trim().replace(/%$/, '').trim();
  if (/^[-–—]*$/.test(s)) return { missing: `no ${column} score` };
  const v = Number(s);
  if (!Number.isFinite(v) || v < 0 || v > 100) return { missing: `${column} is "${raw?.replace(/\s+/g, ' ').trim()}", not a percentage` };
  return { value: v / 100 };
}

/**
 * Reads a leaderboard CSV: a name column (`system`, `model` or `name`) and `dev`, `test` in percent
 * (the BIRD site's table). Rows lacking dev or test are skipped and listed, not guessed.
 * Duplicate names (the same system submitted twice) get a suffix so pairs stay unambiguous.
 */
export function readBoardCsv(file: string): BoardFile {
  const text = readText(file);
  let parsed: CsvRow[];
  try {
    parsed = parseCsvRows(text);
  } catch (e) {
    if (!(e instanceof CsvSyntaxError)) throw e;
    throw new InputFileError(file, e.line, `not a CSV file (${e.message})`);
  }
  const names = (parsed[0]?.cells ?? []).map((c) => c.trim().toLowerCase());
  const rows = parsed.slice(1).map((r) => ({ record: cellsByName(names, r), line: r.line }));
  const header = rows[0] ? names : [];
  const nameCol = ['system', 'model', 'name'].find((c) => header.includes(c));
  if (!nameCol || !header.includes('dev') || !header.includes('test')) {
    throw new InputFileError(file, 1, `expected columns system (or model, or name), dev and test; found ${header.join(', ') || 'no header'}`);
  }
  const out: BoardFile = { rows: [], skipped: [], renamed: [] };
  const seen = new Map<string, number>();
  // A record's line is where it starts; a quoted field may span lines (BIRD's affiliations do).
  for (const { record, line } of rows) {
    const name = (record[nameCol] ?? '').replace(/\s+/g, ' ').trim();
    if (name === '') throw new InputFileError(file, line, `empty ${nameCol}`);
    const dev = percent('dev', record.dev);
    const test = percent('test', record.test);
    if ('missing' in dev || 'missing' in test) {
      const reason = [dev, test].flatMap((x) => ('missing' in x ? [x.missing] : [])).join('; ');
      out.skipped.push({ name, line, reason });
      continue;
    }
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    const unique = count === 1 ? name : `${name} (${count})`;
    if (count > 1) out.renamed.push({ from: name, to: unique, line });
    out.rows.push({ name: unique, dev: dev.value, test: test.value, line });
  }
  return out;
}
