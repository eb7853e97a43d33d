import { validate, type ValidateOptions } from '../api/validate.js';
import type { VALIDATE_OPTIONS } from '../api/validate-options.js';
import type { ParsedOptions } from '../api/option-table.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { checkOutputs } from './check-outputs.js';
import { parseJudgeSpec } from '../validate/sources.js';
import { printNotes } from './outcome.js';
import { withRunHooks } from './run-hooks.js';
import { apiOptions } from './api-options.js';

/** The library's options (VALIDATE_OPTIONS) and the CLI's own output formats. */
export type ValidateArgs = ReportOptions & ValidateOptions & ParsedOptions<typeof VALIDATE_OPTIONS>;

/** `sqlboard validate`'s handler (its flags: validate.ts). */
export async function runValidate(argv: ValidateArgs): Promise<void> {
  const live = argv.provider !== undefined;
  checkOutputs(argv, {
    inputs: {
      '--set': argv.set,
      // A source may be PATH#SUBSET; both spellings are checked (a path that does not exist is skipped).
      '--judge': (argv.judge ?? []).flatMap((spec) => parseJudgeSpec(spec).sources).flatMap((src) => [src, src.replace(/#[^#/]*$/, '')]),
      '--db-root': argv.dbRoot,
      '--replay': argv.replay,
      '--store': live ? argv.store : undefined,
    },
    outputs: { '--store': live ? argv.store : undefined },
  });
  const result = await withRunHooks(argv.store, (hooks) => validate({ ...apiOptions(argv), ...hooks }));
  printNotes(result.notes);
  emitReport(result.report, result.json, argv);
}
