import CliTable from 'cli-table3';
import { formatMeta, shownMeta } from './format.js';
import type { Report, Table } from './model.js';
import { fitTable } from './terminal-fit.js';
import { DEFAULT_COLUMNS } from './default-columns.js';

export { DEFAULT_COLUMNS };

/**
 * One table as cli-table3 text, fitted into `width` columns (Infinity: as wide as it needs, for --wide);
 * no colours, so output is the same on a TTY, in a pipe and in tests.
 */
export function renderTerminalTable(table: Table, width = Infinity): string {
  const fitted = fitTable(table, width);
  const t = new CliTable({
    head: fitted.head,
    colAligns: fitted.aligns,
    style: { head: [], border: [] },
    ...(fitted.colWidths ? { colWidths: fitted.colWidths, wordWrap: true, wrapOnWordBoundary: false } : {}),
    // No rule between body rows: long leaderboards stay readable and half as tall.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of fitted.rows) t.push(row);
  const narrowed = fitted.notes.length ? wrapText(`(to fit ${width} columns: ${fitted.notes.join('; ')}; --wide shows all)`, width) + '\n' : '';
  return narrowed + t.toString();
}

/** Word-wraps a paragraph to `width`, every line starting with `indent`. */
export function wrapText(text: string, width: number, indent = '  '): string {
  if (!Number.isFinite(width)) return indent + text;
  const room = Math.max(20, width - indent.length);
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && [...line].length + 1 + [...word].length > room) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  // A single word longer than the line (a long path) is cut into pieces rather than overflowing.
  return lines.flatMap((l) => ([...l].length <= room ? [l] : (l.match(new RegExp(`.{1,${room}}`, 'gu')) ?? [l]))).map((l) => indent + l).join('\n');
}

/**
 * The whole report for a terminal of `width` columns: title, meta lines, then each section's notes and
 * table. Plots are HTML-only.
 */
export function renderTerminal(report: Report, width = Infinity): string {
  const out: string[] = [report.title];
  for (const [k, v] of shownMeta(report)) out.push(wrapText(`${k}: ${formatMeta(v)}`, width));
  for (const section of report.sections) {
    out.push('', section.title);
    for (const note of section.notes ?? []) out.push(wrapText(note, width));
    if (section.table && section.detail) {
      out.push(`  (${section.table.rows.length} rows: see --md, --html or --json)`);
    } else if (section.table) {
      out.push(renderTerminalTable(section.table, width).replace(/\n$/, ''));
    }
  }
  return out.join('\n') + '\n';
}
