import type { Argv, CommandModule } from 'yargs';
import { JUDGE_OPTIONS } from '../api/judge-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import type { JudgeArgs } from './judge-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `sqlboard judge`'s flags and help; what it does (and all it loads) is in judge-run.ts, loaded only to run it. */
export const judgeCommand: CommandModule<object, JudgeArgs> = {
  ...VERBS.judge,
  builder: (y: Argv) => withExamples(addReportOptions(addOptionTable(y, JUDGE_OPTIONS)), 'judge') as unknown as Argv<JudgeArgs>,
  handler: async (argv) => (await import('./judge-run.js')).runJudge(argv),
};
