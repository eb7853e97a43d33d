import { dirname, join } from 'node:path';
import { score, scoreInputs, type ScoreOptions } from '../api/score.js';
import type { SCORE_OPTIONS } from '../api/score-options.js';
import { metaBeside } from '../api/provenance.js';
import type { ParsedOptions } from '../api/option-table.js';
import { UserError } from '../errors.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun, printNotes } from './outcome.js';
import { withRunHooks } from './run-hooks.js';
import { apiOptions } from './api-options.js';

/** The library's options (SCORE_OPTIONS) and the CLI's own: output formats and --fail-under. */
export type ScoreArgs = ReportOptions & ScoreOptions & ParsedOptions<typeof SCORE_OPTIONS> & { failUnder?: string[] };

/** What `score --fail-under` can gate, per system. */
const SCORE_GATES = {
  ex: 'execution accuracy',
  clean: 'EX on the clean subset; needs --flags or the bundled data',
  'soft-f1': 'mean Soft-F1; needs --metric soft-f1 (default for BIRD)',
  em: 'exact match; needs --metric em (default for Spider)',
  ves: 'VES; needs --metric ves',
  'r-ves': 'R-VES; needs --metric r-ves',
};

/** `sqlboard score`'s handler (its flags: score.ts). */
export async function runScore(argv: ScoreArgs): Promise<void> {
  const { questions, dbRoot, specs, flagsFile } = scoreInputs(argv);
  checkOutputs(argv, {
    inputs: {
      '--questions': questions,
      '--db-root': dbRoot,
      '--system': specs.map((s) => s.file),
      '--flags': flagsFile,
      '--tables': argv.tables ?? join(dirname(questions), 'tables.json'),
      '--store': argv.store,
    },
    outputs: { '--items': metaBeside(argv.items), '--store': argv.store },
  });
  const gates = parseFailUnder(argv.failUnder, SCORE_GATES);
  if (!flagsFile && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
  const result = await withRunHooks(argv.store, (hooks) => score({ ...apiOptions(argv), explorer: argv.html !== undefined, ...hooks }));
  printNotes(result.notes);
  emitReport(result.report, result.json, argv);
  finishRun({ partial: result.partial, belowThreshold: unmetGates(gates, result.metrics) });
}
