import type { Argv, CommandModule } from 'yargs';
import { SCORE_OPTIONS } from '../api/score-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import { FAIL_UNDER_DESCRIBE } from '../report/fail-under.js';
import type { ScoreArgs } from './score-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `--fail-under`'s help on score (also in docs/commands/score.md). */
export const SCORE_FAIL_UNDER = `${FAIL_UNDER_DESCRIBE}; metrics: ex, clean, soft-f1, em, ves, r-ves`;

/** `sqlboard score`'s flags and help; what it does (and all it loads) is in score-run.ts, loaded only to run it. */
export const scoreCommand: CommandModule<object, ScoreArgs> = {
  ...VERBS.score,
  builder: (y: Argv) =>
    addReportOptions(
      withExamples(
        addOptionTable(y, SCORE_OPTIONS).option('fail-under', { type: 'string', array: true, describe: SCORE_FAIL_UNDER }),
        'score',
      ),
    ) as unknown as Argv<ScoreArgs>,
  handler: async (argv) => (await import('./score-run.js')).runScore(argv),
};
