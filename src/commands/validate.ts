import type { Argv, CommandModule } from 'yargs';
import { loadValidationSets } from '../benchmark/validation-set.js';
import { UserError } from '../errors.js';
import { validate } from '../judge/validate.js';
import { parseEnsembleSpec } from '../judge/validate-ensembles.js';
import { loadJudge, parseJudgeSpec } from '../judge/validate-sources.js';
import { addReportOptions, emitReport, type ReportOptions } from '../report/output.js';
import { validateReport } from './validate-report.js';

interface ValidateArgs extends ReportOptions {
  set: string[];
  judge: string[];
  ensemble?: string[];
  repeats?: string[];
  baseline?: string;
  seed: number;
  iterations: number;
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  command: 'validate',
  describe: 'Compare judges with human labels on validation sets (κ, accuracy, MCC, F1 with CIs; pairs, ensembles, upgrade rule)',
  builder: (y) =>
    addReportOptions(
      (y as Argv<object>)
        .option('set', { type: 'string', array: true, demandOption: true, describe: 'Validation set: ROSE-VEC .json or sqlboard .jsonl (repeatable)' })
        .option('judge', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: 'NAME=SOURCE[,SOURCE...]: verdict JSONL files or ROSE output directories (repeatable)',
        })
        .option('ensemble', { type: 'string', array: true, describe: 'majority:a,b,c | unanimity:a,b,c | and:a,b | or:a,b (repeatable)' })
        .option('repeats', { type: 'string', array: true, describe: 'a,b,c: judges that are repeat runs of one configuration; reports their spread' })
        .option('baseline', { type: 'string', describe: 'Judge or ensemble the others must beat on κ, accuracy, MCC and F1' })
        .option('seed', { type: 'number', default: 42, describe: 'Bootstrap seed' })
        .option('iterations', { type: 'number', default: 2000, describe: 'Bootstrap resamples' }),
    ) as unknown as Argv<ValidateArgs>,
  handler: (argv) => {
    if (!Number.isInteger(argv.iterations) || argv.iterations < 1) throw new UserError(`--iterations must be a positive whole number (got ${argv.iterations})`);
    if (!Number.isInteger(argv.seed)) throw new UserError(`--seed must be a whole number (got ${argv.seed})`);
    const sets = loadValidationSets(argv.set);
    const judges = argv.judge.map((spec) => {
      const { name, sources } = parseJudgeSpec(spec);
      return loadJudge(name, sources, sets);
    });
    for (const j of judges) for (const note of j.notes) process.stderr.write(`sqlboard: ${note}\n`);
    const result = validate({
      sets,
      judges,
      ensembles: (argv.ensemble ?? []).map(parseEnsembleSpec),
      repeats: (argv.repeats ?? []).map((g) => g.split(',').map((s) => s.trim()).filter((s) => s !== '')),
      baseline: argv.baseline,
      seed: argv.seed,
      iterations: argv.iterations,
    });
    emitReport(validateReport(result), result, argv);
  },
};
