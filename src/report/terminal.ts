import CliTable from 'cli-table3';
import { columnAlign, formatCell, formatMeta, shownMeta } from './format.js';
import type { Report, Table } from './model.js';

/** One table as cli-table3 text; no colours, so output is the same on a TTY, in a pipe and in tests. */
export function renderTerminalTable(table: Table): string {
  const t = new CliTable({
    head: table.columns.map((c) => c.header),
    colAligns: table.columns.map((c) => columnAlign(c, table.rows)),
    style: { head: [], border: [] },
    // No rule between body rows: long leaderboards stay readable and half as tall.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of table.rows) t.push(table.columns.map((c) => formatCell(row[c.key], c)));
  return t.toString();
}

/** The whole report for a terminal: title, meta lines, then each section's notes and table. Plots are HTML-only. */
export function renderTerminal(report: Report): string {
  const out: string[] = [report.title];
  for (const [k, v] of shownMeta(report)) out.push(`  ${k}: ${formatMeta(v)}`);
  for (const section of report.sections) {
    out.push('', section.title);
    for (const note of section.notes ?? []) out.push(`  ${note}`);
    if (section.table && section.detail) {
      out.push(`  (${section.table.rows.length} rows: see --md, --html or --json)`);
    } else if (section.table) {
      out.push(renderTerminalTable(section.table));
    }
  }
  return out.join('\n') + '\n';
}
