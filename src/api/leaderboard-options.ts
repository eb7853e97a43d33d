import { refuse, whole, type OptionCheck } from './option-checks.js';
import type { OptionTable } from './option-table.js';

/** A published board is analysed alone, and g* needs N and e. */
const BOARD_RULES = [
  refuse((board, o) => board !== undefined && o.by !== undefined, '--by db needs per-item verdicts; a published --board has no per-database scores'),
  refuse((board, o) => board !== undefined && (((o.items as string[] | undefined) ?? []).length > 0 || Boolean(o.flags)), '--board analyses a published leaderboard; do not combine it with verdict files or --flags'),
  refuse((board, o) => board !== undefined && (o.n === undefined || (o.flawed === undefined && o.errorRate === undefined)), '--board needs --n N and --flawed E or --error-rate R (SALUS on BIRD dev: --n 1534 --flawed 564)'),
];

/** The bootstrap's seed is a whole number (a published board is not resampled: no seed). */
const verdictSeed: OptionCheck = (seed, o, flag) => (o.board === undefined ? whole(seed, o, flag) : undefined);

/** Clean-subset accuracy and gates are 0/1 measures: --flags goes with ex or em. */
const flagsMetric: OptionCheck = (metric, o) => (o.board === undefined && metric !== 'ex' && metric !== 'em' && o.flags !== undefined ? `--flags and --fail-under work with --metric ex or em, not ${String(metric)}` : undefined);

/** `sqlboard leaderboard`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const LEADERBOARD_OPTIONS = {
  items: {
    type: 'string',
    array: true,
    describe: 'Per-item verdict files (JSONL from score/judge --items); on the command line also the positional FILES',
    checks: [refuse((items, o) => o.board === undefined && ((items as string[] | undefined) ?? []).length === 0, 'give per-item verdict files (from `score --items`), or --board FILE')],
  },
  flags: { type: 'string', describe: 'SALUS flags CSV task_id,predicted_label (0 = wrong gold): adds clean-subset accuracy and g*' },
  'gold-labels': {
    type: 'string',
    describe: 'Human gold labels for some tasks (CSV query_id|task_id,label; 0 = wrong gold, e.g. SALUS GT_RS_200): the wrong-gold rate left among unflagged tasks',
    checks: [refuse((g, o) => g !== undefined && o.flags === undefined, '--gold-labels needs --flags (it measures what the flags leave behind)')],
  },
  board: { type: 'string', describe: 'Leaderboard CSV (system|model|name, dev, test in percent) instead of verdicts', checks: BOARD_RULES },
  top: { type: 'number', default: 30, describe: '--board: analyse the top K systems by test' },
  n: {
    type: 'number',
    describe: '--board: benchmark size N for g* (required; with verdict files N is the number of tasks)',
    checks: [refuse((n, o) => o.board === undefined && n !== undefined, '--n is for --board; with verdict files N is the number of tasks')],
  },
  flawed: { type: 'number', describe: 'Tasks with wrong gold, e (for g*)' },
  'noise-split': {
    type: 'string',
    choices: ['dev', 'test'],
    default: 'dev',
    describe: '--board: the split that --n and --flawed/--error-rate describe (SALUS measured BIRD dev); the report says which gaps g* bounds directly',
    checks: [refuse((split, o) => o.board === undefined && split !== 'dev', '--noise-split is for --board')],
  },
  'error-rate': { type: 'number', describe: 'Or the error rate e/N as a fraction (for g*)' },
  confidence: { type: 'number', default: 0.95, describe: 'Confidence for intervals, tests and g*' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed', checks: [verdictSeed] },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples' },
  by: { type: 'string', choices: ['db'], describe: 'Also break accuracy down per database (needs dbId in the verdicts; every output format)' },
  metric: {
    type: 'string',
    choices: ['ex', 'em', 'soft-f1', 'ves', 'r-ves'],
    default: 'ex',
    describe: 'Rank by this per-item metric of score --items: ex (correct), em (exact match, 0/1: same tests as ex), or the continuous soft-f1, ves, r-ves (bootstrap intervals, paired bootstrap against #1)',
    checks: [flagsMetric],
  },
} as const satisfies OptionTable;
