import { columnAlign, formatCell, formatMeta, shownMeta } from './format.js';
import type { Report, Table } from './model.js';
import { provenanceMarkdown } from './provenance.js';

/** Escapes text for a GFM table cell: `\\`, `|`, `<` escaped (no stray HTML), line breaks become `<br>`. */
function mdCell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/([|<])/g, '\\$1')
    .replace(/\r?\n/g, '<br>');
}

/** Escapes inline Markdown in headings and notes so system names like `*SQL_v2*` print literally. */
function mdText(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1').replace(/\r?\n/g, ' ');
}

export function renderMarkdownTable(table: Table): string {
  const head = `| ${table.columns.map((c) => mdCell(c.header)).join(' | ')} |`;
  const rule = `|${table.columns.map((c) => (columnAlign(c, table.rows) === 'right' ? ' ---: ' : ' --- ')).join('|')}|`;
  const body = table.rows.map((r) => `| ${table.columns.map((c) => mdCell(formatCell(r[c.key], c))).join(' | ')} |`);
  return [head, rule, ...body].join('\n') + '\n';
}

/** The report as GitHub-flavoured Markdown; plots are HTML-only and are skipped. */
export function renderMarkdown(report: Report): string {
  const out: string[] = [`# ${mdText(report.title)}`, ''];
  const meta = shownMeta(report);
  if (meta.length) {
    for (const [k, v] of meta) out.push(`- **${mdText(k)}**: ${mdText(formatMeta(v))}`);
    out.push('');
  }
  for (const section of report.sections) {
    out.push(`## ${mdText(section.title)}`, '');
    for (const note of section.notes ?? []) out.push(mdText(note), '');
    if (section.table) out.push(renderMarkdownTable(section.table));
  }
  return out.join('\n').replace(/\n+$/, '\n') + (report.provenance ? provenanceMarkdown(report.provenance) : '');
}
