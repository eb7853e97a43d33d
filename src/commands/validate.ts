import type { Argv, CommandModule } from 'yargs';
import { validate } from '../api/validate.js';
import { addBatchOptions, addLlmCallOptions } from './llm-options.js';
import type { BatchArgs } from './llm-options.js';
import type { BatchFallback, BatchWait } from '../llm/batch/waves.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import type { ProviderName } from '../llm/providers/types.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { parseJudgeSpec } from '../validate/sources.js';
import { printNotes } from './outcome.js';
import { runProgress } from './progress.js';
import { DEFAULT_STORE } from '../store/run-store.js';
import { stopOnSignals } from './interrupt.js';
import { apiOptions } from './api-options.js';
import { VERBS } from './verbs.js';

interface ValidateArgs extends ReportOptions, BatchArgs {
  set: string[];
  judge?: string[];
  ensemble?: string[];
  repeats?: string[];
  baseline?: string;
  seed: number;
  iterations: number;
  provider?: string;
  model?: string;
  dbRoot?: string;
  baseUrl?: string;
  replay?: string;
  liveName?: string;
  concurrency: number;
  maxCostUsd?: number;
  maxCalls?: number;
  store: string;
}

export const validateCommand: CommandModule<object, ValidateArgs> = {
  ...VERBS.validate,
  builder: (y) =>
    addReportOptions(
      addBatchOptions(addLlmCallOptions(
      (y as Argv<object>)
        .option('set', { type: 'string', array: true, demandOption: true, describe: 'Validation set: ROSE-VEC .json or sqlboard .jsonl (repeatable)' })
        .option('judge', { type: 'string', array: true, describe: 'NAME=SOURCE[,SOURCE...]: verdict JSONL files or ROSE output directories (repeatable)' })
        .option('ensemble', { type: 'string', array: true, describe: 'majority:a,b,c | unanimity:a,b,c | and:a,b | or:a,b (repeatable)' })
        .option('repeats', { type: 'string', array: true, describe: 'a,b,c: judges that are repeat runs of one configuration; reports their spread' })
        .option('baseline', { type: 'string', describe: 'Judge or ensemble the others must beat on κ, accuracy, MCC and F1' })
        .option('seed', { type: 'number', default: 42, describe: 'Bootstrap seed' })
        .option('iterations', { type: 'number', default: 2000, describe: 'Bootstrap resamples' })
        .option('provider', { choices: PROVIDER_NAMES as string[], describe: 'Also run a live judge over the items: openai, gemini or replay' })
        .option('model', { type: 'string', describe: 'Live judge model id' })
        .option('db-root', { type: 'string', describe: 'Live judge: directory holding <db_id>/<db_id>.sqlite' })
        .option('live-name', { type: 'string', describe: 'Live judge name (default <model>-<snapshot date>)' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store (live judge cache and verdicts)' }), 'Live judge'), 'Live judge'),
    ) as unknown as Argv<ValidateArgs>,
  handler: async (argv) => {
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
    const progress = runProgress();
    let result;
    try {
      result = await validate({
        ...apiOptions(argv),
        provider: argv.provider as ProviderName | undefined,
        batchWait: argv.batchWait as BatchWait,
        batchFallback: argv.batchFallback as BatchFallback,
        ...progress,
        onStoppable: stopOnSignals(argv.store),
      });
    } finally {
      progress.stop();
    }
    printNotes(result.notes);
    emitReport(result.report, result.json, argv);
  },
};
