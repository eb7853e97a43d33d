import { stats } from '../api/stats.js';
import type { CommandResult } from '../api/types.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs, type PathOptions } from './check-outputs.js';

/** `sqlboard stats <sub>`'s handlers (their flags: stats.ts): checks the outputs against the input files before computing, then emits. */
export function emitStatistic(argv: ReportOptions, inputs: PathOptions, compute: (statistics: typeof stats) => CommandResult): void {
  checkOutputs(argv, { inputs });
  const out = compute(stats);
  emitReport(out.report, out.json, argv);
}
