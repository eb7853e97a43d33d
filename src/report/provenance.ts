import { escapeXml } from './escape.js';

/**
 * Where an output came from (inspect_ai's eval log is the model: every result file describes
 * itself). The API puts it in every `--json` object as `meta` beside `schemaVersion`, in the
 * Report for the Markdown and HTML footers, and next to a CSV or JSONL file as `<FILE>.meta.json`.
 */
export interface Provenance {
  sqlboard: {
    version: string;
    /** The git commit of the sqlboard checkout that ran, when it is one. */
    commit?: string;
  };
  /** The command, as the CLI names it (`score`, `stats interval`, `import rose`, ...). */
  command: string;
  /** The options the command ran with, as given (defaults are the command's). */
  options: Record<string, unknown>;
  /** sha256 of every database file the run opened, by db_id. */
  databases?: Record<string, string>;
  /** sha256 (first 16 hex) of every prompt template the run sent, by template name. */
  prompts?: Record<string, string>;
  /** The LLMs the run called: their role, provider and model snapshot. */
  models?: { role: string; provider: string; model: string }[];
  /** The seed of every random choice in the run (bootstrap, folds), when the command has one. */
  seed?: number;
  /**
   * The SQLite that decided the run's executions (docs/sqlite.md): its version and compile options,
   * double-quoted strings on as in a default build, and --sqlite-compat's older SQLite if given.
   */
  sqlite?: { version: string; compileOptions: string[]; doubleQuotedStrings: true; compat?: string };
  /** ISO 8601 times the run started and ended. */
  startedAt: string;
  endedAt: string;
}

/** The version of the `--json` objects' shape; bumped when a field changes meaning or goes away. */
export const SCHEMA_VERSION = 2;

/**
 * `FILE.meta.json`: the provenance beside a file that has no place for it, CSV (a comment line would
 * be read as data) and JSONL (each line stays one plain record for every reader).
 */
export function metaCompanion(p: Provenance): string {
  return JSON.stringify({ schemaVersion: SCHEMA_VERSION, meta: p }, null, 2) + '\n';
}

/** The Markdown footer: a collapsed block with the provenance as JSON (GitHub renders `<details>`). */
export function provenanceMarkdown(p: Provenance): string {
  return ['', '---', '', '<details><summary>Provenance (sqlboard ' + p.sqlboard.version + ', ' + p.command + ', ' + p.endedAt + ')</summary>', '', '```json', JSON.stringify(p, null, 2), '```', '', '</details>', ''].join('\n');
}

/** The HTML footer: the same JSON, collapsed, at the end of the page. */
export function provenanceHtml(p: Provenance): string {
  const summary = `Provenance: sqlboard ${p.sqlboard.version}${p.sqlboard.commit ? ` (${p.sqlboard.commit.slice(0, 12)})` : ''}, ${p.command}, ${p.endedAt}`;
  return `<footer class="provenance" style="margin-top:32px;font-size:12px;color:var(--muted)"><details><summary>${escapeXml(summary)}</summary><pre id="sqlboard-provenance" style="white-space:pre-wrap;overflow-wrap:anywhere">${escapeXml(JSON.stringify(p, null, 2))}</pre></details></footer>\n`;
}
