import type { RoseImportSummary } from '../benchmark/rose-import.js';
import { formatPercent } from './format.js';
import type { Report } from './model.js';

/** The terminal/Markdown/HTML view of `import rose`; `--json` prints the summary itself. */
export function roseImportReport(s: RoseImportSummary): Report {
  const rows = [
    { what: 'Items', value: s.n, format: 'integer' },
    { what: 'Judged correct', value: s.correct, format: 'integer' },
    { what: "Accuracy of the predictions, as judged (ROSE's verdicts)", value: s.accuracy, format: 'percent' },
    ...(s.ex ? [{ what: `EX (${s.ex.n} items)`, value: s.ex.accuracy, format: 'percent' }] : []),
    ...(s.goldX !== null ? [{ what: 'GoldX (Refuter: gold wrong)', value: s.goldX, format: 'integer' }] : []),
    ...(s.ambQ !== null ? [{ what: 'AmbQ (Refuter: question ambiguous)', value: s.ambQ, format: 'integer' }] : []),
    ...(s.calls !== null ? [{ what: 'LLM calls (inferred from routes)', value: s.calls, format: 'integer' }] : []),
  ];
  return {
    title: `ROSE run imported as ${s.system}`,
    meta: { source: s.source, subset: s.subset ?? '-', kind: s.kind },
    sections: [
      {
        title: 'Summary',
        table: {
          columns: [
            { key: 'what', header: '' },
            { key: 'value', header: 'Value', align: 'right' },
          ],
          rows: rows.map((r) => ({
            what: r.what,
            value: r.format === 'percent' ? formatPercent(r.value, 2) : String(r.value),
          })),
        },
      },
      {
        title: 'Routes',
        table: {
          columns: [
            { key: 'route', header: 'Route' },
            { key: 'n', header: 'Items', format: 'integer' },
          ],
          rows: Object.entries(s.routes).map(([route, n]) => ({ route, n })),
        },
      },
    ],
  };
}
