import type { Argv, CommandModule } from 'yargs';
import { LEADERBOARD_OPTIONS } from '../api/leaderboard-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import { FAIL_UNDER_DESCRIBE } from '../report/fail-under.js';
import type { LeaderboardArgs } from './leaderboard-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `--fail-under`'s help on leaderboard (also in docs/commands/leaderboard.md). */
export const LEADERBOARD_FAIL_UNDER = `${FAIL_UNDER_DESCRIBE}; metrics: accuracy (or ex), clean`;

/** `sqlboard leaderboard`'s flags and help; what it does (and all it loads) is in leaderboard-run.ts, loaded only to run it. */
export const leaderboardCommand: CommandModule<object, LeaderboardArgs> = {
  ...VERBS.leaderboard,
  builder: (y) =>
    withExamples(addReportOptions(
      addOptionTable(y.positional('files', { type: 'string', array: true, describe: 'Per-item verdict files (JSONL from score/judge --items)' }), LEADERBOARD_OPTIONS)
        .option('fail-under', { type: 'string', array: true, describe: LEADERBOARD_FAIL_UNDER })
        .epilogue(
          'From verdicts: tasks are the union over all systems; a system without a verdict for a task counts it wrong ' +
            '(the report names it). "Not significantly below #1" = exact McNemar against #1, Holm-adjusted over the comparisons with #1, p >= 1 - confidence (not a tie). ' +
            'With --flags (or --flawed/--error-rate), g* = z*2*sqrt(e)/N uses N = the number of tasks. ' +
            'Put --csv/--md after the verdict files (or write --csv -): they take an optional FILE.\n',
        ),
    ), 'leaderboard') as unknown as Argv<LeaderboardArgs>,
  handler: async (argv) => (await import('./leaderboard-run.js')).runLeaderboard(argv),
};
