import type { Argv, CommandModule } from 'yargs';
import { LEADERBOARD_OPTIONS, leaderboard } from '../api/leaderboard.js';
import type { ParsedOptions } from '../api/option-table.js';
import { addOptionTable } from './option-table.js';
import { UserError } from '../errors.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { FAIL_UNDER_DESCRIBE, parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun } from './outcome.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';


/** The library's options (LEADERBOARD_OPTIONS), the positional verdict files, and the CLI's own: output formats and --fail-under. */
type LeaderboardArgs = ReportOptions & ParsedOptions<typeof LEADERBOARD_OPTIONS> & { files?: string[]; failUnder?: string[] };

/** What `leaderboard --fail-under` can gate, per system. */
const LEADERBOARD_GATES = { accuracy: 'accuracy over the verdicts (alias ex)', ex: 'the same as accuracy', clean: 'accuracy on the clean subset; needs --flags' };

export const leaderboardCommand: CommandModule<object, LeaderboardArgs> = {
  ...VERBS.leaderboard,
  builder: (y) =>
    addReportOptions(
      addOptionTable(y.positional('files', { type: 'string', array: true, describe: 'Per-item verdict files (JSONL from score/judge --items)' }), LEADERBOARD_OPTIONS)
        .option('fail-under', { type: 'string', array: true, describe: `${FAIL_UNDER_DESCRIBE}; metrics: accuracy (or ex), clean` })
        .epilogue(
          'From verdicts: tasks are the union over all systems; a system without a verdict for a task counts it wrong ' +
            '(the report names it). "Indistinguishable from #1" = exact McNemar p >= 1 - confidence. ' +
            'With --flags (or --flawed/--error-rate), g* = z*2*sqrt(e)/N uses N = the number of tasks. ' +
            'Put --csv/--md after the verdict files (or write --csv -): they take an optional FILE.',
        )
        .example('$0 leaderboard --board overall-ex.csv --n 1534 --flawed 564', 'Which BIRD gaps exceed the noise threshold')
        .example('$0 leaderboard a.jsonl b.jsonl --flags frontier_spider.csv --html board.html', 'Per-item leaderboard with an HTML report'),
    ) as unknown as Argv<LeaderboardArgs>,
  handler: (argv) => {
    checkOutputs(argv, { inputs: { 'verdict file': argv.files, '--items': argv.items, '--flags': argv.flags, '--board': argv.board } });
    if (argv.board !== undefined && argv.by === undefined && argv.failUnder?.length) throw new UserError('--fail-under gates systems scored from verdict files, not a published --board');
    const gates = argv.board === undefined ? parseFailUnder(argv.failUnder, LEADERBOARD_GATES) : [];
    if (argv.flags === undefined && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
    if (gates.length > 0 && argv.metric !== 'ex' && argv.metric !== 'em') throw new UserError(`--flags and --fail-under work with --metric ex or em, not ${argv.metric}`);
    const { files, failUnder: _gates, ...opts } = apiOptions(argv);
    const result = leaderboard({ ...opts, items: [...(files ?? []), ...(argv.items ?? [])] });
    emitReport(result.report, result.json, argv);
    finishRun({ partial: result.partial, belowThreshold: unmetGates(gates, result.metrics) });
  },
};
