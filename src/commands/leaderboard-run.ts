import { leaderboard } from '../api/leaderboard.js';
import type { LEADERBOARD_OPTIONS } from '../api/leaderboard-options.js';
import type { ParsedOptions } from '../api/option-table.js';
import { UserError } from '../errors.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { parseFailUnder, unmetGates } from '../report/fail-under.js';
import { finishRun } from './outcome.js';
import { apiOptions } from './api-options.js';

/** The library's options (LEADERBOARD_OPTIONS), the positional verdict files, and the CLI's own: output formats and --fail-under. */
export type LeaderboardArgs = ReportOptions & ParsedOptions<typeof LEADERBOARD_OPTIONS> & { files?: string[]; failUnder?: string[] };

/** What `leaderboard --fail-under` can gate, per system. */
const LEADERBOARD_GATES = { accuracy: 'accuracy over the verdicts (alias ex)', ex: 'the same as accuracy', clean: 'accuracy on the clean subset; needs --flags' };

/** `sqlboard leaderboard`'s handler (its flags: leaderboard.ts). */
export function runLeaderboard(argv: LeaderboardArgs): void {
  checkOutputs(argv, { inputs: { 'verdict file': argv.files, '--items': argv.items, '--flags': argv.flags, '--gold-labels': argv.goldLabels, '--board': argv.board } });
  if (argv.board !== undefined && argv.by === undefined && argv.failUnder?.length) throw new UserError('--fail-under gates systems scored from verdict files, not a published --board');
  const gates = argv.board === undefined ? parseFailUnder(argv.failUnder, LEADERBOARD_GATES) : [];
  if (argv.flags === undefined && gates.some((g) => g.metric === 'clean')) throw new UserError('--fail-under clean=... needs --flags FILE (the clean subset is the unflagged tasks)');
  if (gates.length > 0 && argv.metric !== 'ex' && argv.metric !== 'em') throw new UserError(`--flags and --fail-under work with --metric ex or em, not ${argv.metric}`);
  const { files, failUnder: _gates, ...opts } = apiOptions(argv);
  const result = leaderboard({ ...opts, items: [...(files ?? []), ...(argv.items ?? [])] });
  emitReport(result.report, result.json, argv);
  finishRun({ partial: result.partial, belowThreshold: unmetGates(gates, result.metrics) });
}
