import { escapeXml } from './escape.js';
import { columnAlign, formatCell, formatMeta, shownMeta } from './format.js';
import { isInterval, type Cell, type Column, type Plot, type Report, type Table } from './model.js';
import { renderIntervalPlot } from './svg-interval.js';
import { renderMatrixPlot } from './svg-matrix.js';
import { EXPLORER_CSS, explorerScriptSource, renderExplorer } from './explorer-html.js';
import { provenanceHtml } from './provenance.js';

/** Tables longer than this start collapsed, so the plots stay near the top of the page. */
const COLLAPSE_ROWS = 40;

const CSS = `
:root { --fg:#1d2430; --muted:#5d6878; --line:#d9dee6; --accent:#2563ab; --band:#dbe8f7; --stripe:#f6f8fb; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: #fff; }
main { max-width: 1180px; margin: 0 auto; padding: 28px 32px 60px; }
main.wide { max-width: 1640px; }
h1 { font-size: 24px; margin: 0 0 10px; }
h2 { font-size: 18px; margin: 34px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0 0 8px; color: var(--muted); }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; }
p.note { margin: 6px 0; color: var(--muted); max-width: 900px; }
figure { margin: 14px 0; overflow-x: auto; }
dl.meta dd, p.note { overflow-wrap: anywhere; }
@media (max-width: 640px) { main { padding: 16px 12px 40px; } dl.meta { grid-template-columns: 1fr; } }
figcaption { font-weight: 600; margin-bottom: 4px; }
table.data { border-collapse: collapse; margin: 10px 0; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: 4px 10px; border-bottom: 1px solid var(--line); white-space: nowrap; }
table.data th { text-align: left; background: #eef1f5; white-space: normal; vertical-align: bottom; max-width: 150px; }
/* A table still too wide scrolls inside its box, with a scrollbar drawn whether or not the system hides idle ones. */
div.table-wrap { overflow-x: auto; max-width: 100%; scrollbar-width: thin; scrollbar-color: #8a94a3 #eef1f5; }
table.data span.ci { color: var(--muted); }
table.data.stacked span.ci { display: block; font-size: 12px; }
/* ... and its text cells (names) may wrap, at hyphens first, only as far as the box needs. */
table.data.stacked td:not(.r) { white-space: normal; }
table.data td.r, table.data th.r { text-align: right; }
table.data tbody tr:nth-child(even) { background: var(--stripe); }
details > summary { cursor: pointer; color: var(--accent); margin: 8px 0; }
svg.plot { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; display: block; }
/* Plots shrink with the page down to a width whose text stays legible, then scroll inside their figure. */
svg.plot { max-width: 100%; min-width: 600px; height: auto; }
svg .stripe { fill: var(--stripe); }
svg .grid { stroke: #e3e7ed; stroke-width: 1; }
svg .axis { stroke: #8a94a3; stroke-width: 1; }
svg .tick, svg .value, svg .legend, svg .col-label { fill: var(--muted); }
svg .axis-label { fill: var(--fg); font-weight: 600; }
svg .label { fill: var(--fg); }
svg .band { fill: var(--band); stroke: #9dbde3; stroke-dasharray: 3 3; }
svg .band-label { fill: var(--accent); font-weight: 600; }
svg .ci { stroke: #6b7686; stroke-width: 1.6; }
svg .mark { fill: #8a94a3; stroke: #fff; stroke-width: 1.2; }
svg .in-band .mark { fill: var(--accent); }
svg .in-band .ci { stroke: var(--accent); }
svg .legend-mark { fill: #8a94a3; }
svg .legend-mark.in-band-mark { fill: var(--accent); }
svg .secondary { fill: #fff; stroke: #b45309; stroke-width: 1.6; }
svg .secondary-value { fill: #b45309; }
svg .cell rect, svg rect.cell { stroke: #fff; stroke-width: 1; }
svg rect.empty { fill: #f1f3f6; }
svg .cell-text { font-size: 10px; fill: #334; }
svg .cell-text.on-strong { fill: #fff; }
svg .muted { fill: var(--muted); }
`;

/** The width a table's box has on the page (main's 1,180 px less its padding). */
const BOX_PX = 1116;
/** About the width of one character of the page's 14 px font (digits are tabular); a cell's padding. */
const CHAR_PX = 7.8;
const PAD_PX = 21;

/** The rough width of a table whose intervals share the estimate's line (headers wrap at 150 px). */
function estimatedWidth(table: Table): number {
  return table.columns.reduce((sum, c) => {
    const longestWord = Math.max(...c.header.split(/\s+/).map((w) => w.length));
    const header = Math.min(150, Math.max(longestWord, Math.min(c.header.length, 12)) * CHAR_PX);
    const cells = Math.max(0, ...table.rows.map((r) => formatCell(r[c.key], c).length)) * CHAR_PX;
    return sum + Math.max(header, cells) + PAD_PX;
  }, 0);
}

/**
 * An interval's bracket in its own span: a table too wide for the page puts it under the estimate
 * (`stacked`), which about halves each interval column, rather than pushing columns off-screen.
 * The space before the span keeps the cell's text "80.4% [75.1, 85.4]" for copy and search.
 */
function intervalCell(cell: Cell, column: Column): string {
  if (!isInterval(cell)) return escapeXml(formatCell(cell, column));
  const text = formatCell(cell, column);
  const cut = text.indexOf(' [');
  return cut < 0 ? escapeXml(text) : `${escapeXml(text.slice(0, cut))} <span class="ci">${escapeXml(text.slice(cut + 1))}</span>`;
}

function renderTable(table: Table): string {
  const aligns = table.columns.map((c) => (columnAlign(c, table.rows) === 'right' ? ' class="r"' : ''));
  const stacked = estimatedWidth(table) > BOX_PX && table.columns.some((c) => table.rows.some((r) => isInterval(r[c.key])));
  const head = table.columns.map((c, i) => `<th${aligns[i]}>${escapeXml(c.header)}</th>`).join('');
  const body = table.rows
    .map((row) => {
      const cells = table.columns.map((c, i) => {
        const cell = row[c.key];
        // Interval method names go in the tooltip: useful, but too long for every cell.
        const title = isInterval(cell) && cell.method ? ` title="${escapeXml(cell.method)}"` : '';
        return `<td${aligns[i]}${title}>${intervalCell(cell, c)}</td>`;
      });
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  const html = `<div class="table-wrap"><table class="data${stacked ? ' stacked' : ''}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
  return table.rows.length > COLLAPSE_ROWS
    ? `<details><summary>Show all ${table.rows.length} rows</summary>${html}</details>`
    : html;
}

function renderPlot(plot: Plot): string {
  const svg = plot.kind === 'interval' ? renderIntervalPlot(plot) : renderMatrixPlot(plot);
  const caption = plot.title ? `<figcaption>${escapeXml(plot.title)}</figcaption>` : '';
  return `<figure class="${plot.kind}">${caption}${svg}</figure>`;
}

/**
 * The report as ONE self-contained HTML page: inline CSS, inline SVG, and a Content-Security-Policy
 * that forbids every network fetch, so it opens offline and leaks nothing. No script runs but the
 * per-item explorer's own (allowed by its hash), when the report has one.
 */
export function renderHtml(report: Report): string {
  const meta = shownMeta(report);
  const metaHtml = meta.length
    ? `<dl class="meta">${meta.map(([k, v]) => `<dt>${escapeXml(k)}</dt><dd>${escapeXml(formatMeta(v))}</dd>`).join('')}</dl>`
    : '';
  const sections = report.sections.map((s) => {
    const notes = (s.notes ?? []).map((n) => `<p class="note">${escapeXml(n)}</p>`).join('\n');
    const plots = (s.plots ?? []).map(renderPlot).join('\n');
    const table = s.table ? renderTable(s.table) : '';
    return `<section>\n<h2>${escapeXml(s.title)}</h2>\n${notes}\n${plots}\n${table}\n</section>`;
  });
  const explorer = report.explorer ? renderExplorer(report.explorer) : '';
  // Scripts run only in a page with an explorer, and only the one whose hash the policy names.
  const scripts = report.explorer ? `; script-src ${explorerScriptSource()}` : '';
  const toExplorer = report.explorer ? '<p class="note"><a href="#explorer">Per-task explorer</a> (every task, each system\'s SQL, result and verdict)</p>' : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:${scripts}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="sqlboard">
<title>${escapeXml(report.title)}</title>
<style>${CSS}${report.explorer ? EXPLORER_CSS : ''}</style>
</head>
<body>
<main${report.explorer ? ' class="wide"' : ''}>
<h1>${escapeXml(report.title)}</h1>
${metaHtml}
${toExplorer}
${sections.join('\n')}
${explorer}
${report.provenance ? provenanceHtml(report.provenance) : ''}</main>
</body>
</html>
`;
}
