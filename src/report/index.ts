/**
 * Reports: build a `Report` (model.ts), output it with `emitReport` (output.ts).
 * Renderers return strings and never print.
 */
export * from './model.js';
export { formatCell, formatPercent, formatPoints, formatPValue } from './format.js';
export { renderTerminal, renderTerminalTable } from './terminal.js';
export { renderCsv, renderCsvTable, csvField } from './csv.js';
export { renderMarkdown, renderMarkdownTable } from './markdown.js';
export { renderHtml } from './html.js';
export { emitReport, processIo, type ReportOptions, type ReportIo } from './output.js';
