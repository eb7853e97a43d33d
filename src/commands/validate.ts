import type { Argv, CommandModule } from 'yargs';
import { VALIDATE_OPTIONS } from '../api/validate-options.js';
import { addOptionTable } from './option-table.js';
import { addReportOptions } from './report-options.js';
import type { ValidateArgs } from './validate-run.js';
import { VERBS } from './verbs.js';
import { withExamples } from './examples.js';

/** `sqlboard validate`'s flags and help; what it does (and all it loads) is in validate-run.ts, loaded only to run it. */
export const validateCommand: CommandModule<object, ValidateArgs> = {
  ...VERBS.validate,
  builder: (y) => withExamples(addReportOptions(addOptionTable(y as Argv<object>, VALIDATE_OPTIONS)), 'validate') as unknown as Argv<ValidateArgs>,
  handler: async (argv) => (await import('./validate-run.js')).runValidate(argv),
};
