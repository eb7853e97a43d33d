/**
 * How every command outputs its results — the one place that decides where text goes.
 *
 * In a command module (see src/commands/leaderboard.ts for a complete one):
 * ```ts
 * import { emitReport, type ReportOptions } from '../report/output.js';
 * import { addReportOptions } from './report-options.js';
 *
 * builder: (y) => addReportOptions(y.option('seed', { type: 'number' })),
 * handler: (argv) => {
 *   const result = computeSomething(argv);          // core: pure, never prints
 *   const report = somethingReport(result);         // a Report (src/report/model.ts)
 *   emitReport(report, result, argv);               // result = the object `--json` prints
 * },
 * ```
 * Options added by `addReportOptions` (src/commands/report-options.ts):
 * - (none)          the terminal table on stdout
 * - `--json`        `JSON.stringify(jsonObject, null, 2)` on stdout and NOTHING else there
 * - `--csv [FILE]`  the main table as CSV to FILE (its provenance beside it in FILE.meta.json), or to stdout without FILE (or with `-`);
 *                   formula-like cells get a leading ' unless `--csv-raw` (csv.ts)
 * - `--md [FILE]`   the report as Markdown, likewise
 * - `--html FILE`   the self-contained HTML page to FILE
 * - `--wide`        the terminal table at full width; otherwise it is fitted to the terminal's columns
 *                   (100 when stdout is not a terminal), see terminal-fit.ts
 * At most one format may go to stdout; file outputs combine freely with any of them, and when
 * none goes to stdout the terminal table still does. "wrote FILE" notices go to stderr.
 * Because `--csv`/`--md` take an optional value, put them after positional arguments
 * (`sqlboard x a.jsonl --csv`, not `--csv a.jsonl`), or write `--csv -`.
 */
import { UserError } from '../errors.js';
import { writeOutputFile } from '../benchmark/write-file.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './model.js';
import { metaCompanion } from './provenance.js';
import { DEFAULT_COLUMNS, renderTerminal } from './terminal.js';
import { redact } from '../llm/secrets.js';

/** Parsed output options; `''` or `'-'` for csv/md means stdout. */
export interface ReportOptions {
  json?: boolean;
  csv?: string;
  /** --csv-raw: formula-like cells as they are (default: neutralised, see csv.ts). */
  csvRaw?: boolean;
  md?: string;
  html?: string;
  wide?: boolean;
}

/** Where emitReport writes; tests pass their own, commands use the default (process streams, fs). */
export interface ReportIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** `flag` names the option in an error (`--md`, `--record`). */
  writeFile: (path: string, text: string, flag?: string) => void;
  /** The terminal's width, or undefined when stdout is not a terminal. */
  columns?: () => number | undefined;
}

export const processIo: ReportIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  // No configured API key reaches a report file, whatever text carried it (src/llm/secrets.ts).
  writeFile: (path, text, flag = 'output') => writeOutputFile(flag, path, redact(text)),
  columns: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
};

const toStdout = (v: string | undefined): boolean => v === '' || v === '-';

/** Extensions of files sqlboard reads or writes; a report file may end only in its own. */
const DATA_EXTENSIONS = new Set(['jsonl', 'json', 'sql', 'sqlite', 'sqlite3', 'db', 'csv', 'tsv', 'md', 'markdown', 'html', 'htm']);
const OWN_EXTENSIONS: Record<string, string[]> = { '--csv': ['csv'], '--md': ['md', 'markdown'], '--html': ['html', 'htm'] };

/**
 * Throws UserError for output options that conflict or mean nothing: two formats on stdout, `--html`
 * without a FILE, `--wide` when no terminal table is printed. Commands call it (through
 * checkOutputs, src/commands/report-options.ts) before any work; emitReport again before writing.
 */
export function checkReportOptions(argv: ReportOptions): void {
  const stdoutFormats = [argv.json ? '--json' : '', toStdout(argv.csv) ? '--csv' : '', toStdout(argv.md) ? '--md' : ''].filter(Boolean);
  if (stdoutFormats.length > 1) {
    throw new UserError(`${stdoutFormats.join(' and ')} would all write to stdout; give --csv/--md a FILE`);
  }
  if (argv.csvRaw && argv.csv === undefined) throw new UserError('--csv-raw changes what --csv writes: add --csv [FILE] or drop --csv-raw');
  if (argv.html !== undefined && (argv.html === '' || argv.html === '-')) {
    throw new UserError('--html needs a FILE to write (the page is not printed to stdout)');
  }
  for (const { flag, path } of reportFiles(argv)) {
    // `leaderboard --md a.jsonl b.jsonl` reads as --md FILE: the Markdown would replace the verdict file a.jsonl.
    const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
    if (ext !== undefined && DATA_EXTENSIONS.has(ext) && !OWN_EXTENSIONS[flag]!.includes(ext)) {
      throw new UserError(
        `${flag} ${path}: a .${ext} file is data, not this report (${flag} takes the word after it as its FILE): put ${flag} after the input files, write ${flag} - for stdout, or give a FILE ending in .${OWN_EXTENSIONS[flag]![0]}`,
      );
    }
  }
  if (argv.wide && stdoutFormats.length > 0) {
    throw new UserError(`--wide sets the terminal table's width, and ${stdoutFormats[0]} prints instead of that table: drop one of them`);
  }
}

/** The files the report options write, with their flags (`--csv FILE`, `--md FILE`, `--html FILE`). */
export function reportFiles(argv: ReportOptions): { flag: string; path: string }[] {
  const files: { flag: string; path: string }[] = [];
  if (argv.csv !== undefined && !toStdout(argv.csv)) files.push({ flag: '--csv', path: argv.csv });
  if (argv.md !== undefined && !toStdout(argv.md)) files.push({ flag: '--md', path: argv.md });
  if (argv.html !== undefined) files.push({ flag: '--html', path: argv.html });
  return files;
}

/**
 * Renders `report` (and `json` for --json) as `argv` asks. Throws UserError for conflicting or
 * incomplete options BEFORE writing anything, so a bad flag never leaves half the output behind.
 */
export function emitReport(report: Report, json: unknown, argv: ReportOptions, io: ReportIo = processIo): void {
  checkReportOptions(argv);
  const csv = (r: Report): string => renderCsv(r, { raw: argv.csvRaw === true });
  const render = { '--csv': csv, '--md': renderMarkdown, '--html': renderHtml };
  const files: (readonly [string, string, string])[] = reportFiles(argv).map(({ flag, path }) => [flag, path, render[flag as keyof typeof render](report)] as const);
  // CSV has no place for the provenance that every reader skips: it goes beside the file.
  const csvFile = files.find(([flag]) => flag === '--csv');
  if (csvFile && report.provenance) files.push(['--csv', `${csvFile[1]}.meta.json`, metaCompanion(report.provenance)]);

  if (argv.json) io.stdout(JSON.stringify(json, null, 2) + '\n');
  else if (toStdout(argv.csv)) io.stdout(csv(report));
  else if (toStdout(argv.md)) io.stdout(renderMarkdown(report));
  else io.stdout(renderTerminal(report, argv.wide ? Infinity : (io.columns?.() ?? DEFAULT_COLUMNS)));

  for (const [flag, path, text] of files) {
    io.writeFile(path, text, flag);
    io.stderr(`sqlboard: wrote ${path}\n`);
  }
}
