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
 * - `--csv [FILE]`  the main table as CSV to FILE, or to stdout without FILE (or with `-`)
 * - `--md [FILE]`   the report as Markdown, likewise
 * - `--html FILE`   the self-contained HTML page to FILE
 * - `--wide`        the terminal table at full width; otherwise it is fitted to the terminal's columns
 *                   (100 when stdout is not a terminal), see terminal-fit.ts
 * At most one format may go to stdout; file outputs combine freely with any of them, and when
 * none goes to stdout the terminal table still does. "wrote FILE" notices go to stderr.
 * Because `--csv`/`--md` take an optional value, put them after positional arguments
 * (`sqlboard x a.jsonl --csv`, not `--csv a.jsonl`), or write `--csv -`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from '../errors.js';
import { renderCsv } from './csv.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './model.js';
import { DEFAULT_COLUMNS, renderTerminal } from './terminal.js';
import { redact } from '../llm/secrets.js';

/** Parsed output options; `''` or `'-'` for csv/md means stdout. */
export interface ReportOptions {
  json?: boolean;
  csv?: string;
  md?: string;
  html?: string;
  wide?: boolean;
}

/** Where emitReport writes; tests pass their own, commands use the default (process streams, fs). */
export interface ReportIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  writeFile: (path: string, text: string) => void;
  /** The terminal's width, or undefined when stdout is not a terminal. */
  columns?: () => number | undefined;
}

export const processIo: ReportIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  writeFile: (path, text) => {
    mkdirSync(dirname(path), { recursive: true });
    // No configured API key reaches a report file, whatever text carried it (src/llm/secrets.ts).
    writeFileSync(path, redact(text));
  },
  columns: () => (process.stdout.isTTY ? process.stdout.columns : undefined),
};

const toStdout = (v: string | undefined): boolean => v === '' || v === '-';

/**
 * Renders `report` (and `json` for --json) as `argv` asks. Throws UserError for conflicting or
 * incomplete options BEFORE writing anything, so a bad flag never leaves half the output behind.
 */
export function emitReport(report: Report, json: unknown, argv: ReportOptions, io: ReportIo = processIo): void {
  const stdoutFormats = [argv.json ? '--json' : '', toStdout(argv.csv) ? '--csv' : '', toStdout(argv.md) ? '--md' : ''].filter(Boolean);
  if (stdoutFormats.length > 1) {
    throw new UserError(`${stdoutFormats.join(' and ')} would all write to stdout; give --csv/--md a FILE`);
  }
  if (argv.html !== undefined && (argv.html === '' || argv.html === '-')) {
    throw new UserError('--html needs a FILE to write (the page is not printed to stdout)');
  }

  const files: [string, string][] = [];
  if (argv.csv !== undefined && !toStdout(argv.csv)) files.push([argv.csv, renderCsv(report)]);
  if (argv.md !== undefined && !toStdout(argv.md)) files.push([argv.md, renderMarkdown(report)]);
  if (argv.html !== undefined) files.push([argv.html, renderHtml(report)]);

  if (argv.json) io.stdout(JSON.stringify(json, null, 2) + '\n');
  else if (toStdout(argv.csv)) io.stdout(renderCsv(report));
  else if (toStdout(argv.md)) io.stdout(renderMarkdown(report));
  else io.stdout(renderTerminal(report, argv.wide ? Infinity : (io.columns?.() ?? DEFAULT_COLUMNS)));

  for (const [path, text] of files) {
    io.writeFile(path, text);
    io.stderr(`sqlboard: wrote ${path}\n`);
  }
}
