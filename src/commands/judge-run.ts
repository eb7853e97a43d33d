import { judge, type JudgeOptions } from '../api/judge.js';
import type { JUDGE_OPTIONS } from '../api/judge-options.js';
import type { ParsedOptions } from '../api/option-table.js';
import { metaBeside } from '../api/provenance.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { finishRun, printNotes } from './outcome.js';
import { withRunHooks } from './run-hooks.js';
import { apiOptions } from './api-options.js';

/** The library's options (JUDGE_OPTIONS) and the CLI's own output formats. */
export type JudgeArgs = ReportOptions & JudgeOptions & ParsedOptions<typeof JUDGE_OPTIONS>;

/** `sqlboard judge`'s handler (its flags: judge.ts). */
export async function runJudge(argv: JudgeArgs): Promise<void> {
  checkOutputs(argv, {
    inputs: {
      '--questions': argv.questions,
      '--db-root': argv.dbRoot,
      '--system': parseSystemSpecs(argv.system).map(([, file]) => file),
      '--descriptions': argv.descriptions,
      '--replay': argv.replay,
      '--price-file': argv.priceFile,
      '--store': argv.store,
    },
    outputs: { '--items': metaBeside(argv.items), '--record': argv.record, '--store': argv.store },
  });
  const result = await withRunHooks(argv.store, (hooks) => judge({ ...apiOptions(argv), explorer: argv.html !== undefined, ...hooks }));
  printNotes(result.notes);
  emitReport(result.report, result.json, argv);
  finishRun({ partial: result.partial, belowThreshold: [] });
}
