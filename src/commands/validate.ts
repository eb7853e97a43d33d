import type { Argv, CommandModule } from 'yargs';
import { loadValidationSets, type ValidationSet } from '../benchmark/validation-set.js';
import { UserError } from '../errors.js';
import { atLeast, wholeNumber } from '../api/option-checks.js';
import { addBatchOptions, addLlmCallOptions, batchModeOptions, checkLlmCallOptions } from './llm-options.js';
import type { BatchArgs } from './llm-options.js';
import { batchProgressLine } from './batch-progress.js';
import { ExecutionEngine } from '../execution/engine.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import type { ProviderName } from '../llm/providers/types.js';
import { createLiveJudge } from '../judge/setup.js';
import { validate } from '../validate/validate.js';
import { parseEnsembleSpec } from '../validate/ensembles.js';
import { judgeValidationItems } from '../validate/live.js';
import { loadJudge, parseJudgeSpec, type JudgeVerdicts } from '../validate/sources.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { terminalProgress } from './progress.js';
import { stopCleanlyOnSignals } from './interrupt.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { validateReport } from '../report/validate-report.js';
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

/** The live judge over the sets' own items, wired like `sqlboard judge` (src/judge/setup.ts). */
async function liveJudge(argv: ValidateArgs, sets: ValidationSet[]): Promise<JudgeVerdicts> {
  if (!argv.model || !argv.dbRoot) throw new UserError('--provider needs --model and --db-root (the databases of the sets\' items)');
  const batchProgress = batchProgressLine();
  const batch = batchModeOptions(argv, (p) => {
    // The bars exist by the time a wave polls.
    exec.stop();
    judging.stop();
    batchProgress(p);
  });
  const store = openRunStore(argv.store);
  const engine = new ExecutionEngine({ dbRoot: argv.dbRoot, store });
  const release = stopCleanlyOnSignals({ store: argv.store, stopNow: () => (engine.interruptNow(), store.close()) });
  const exec = terminalProgress('executing');
  const judging = terminalProgress('judging');
  try {
    const judge = createLiveJudge({
      providerConfig: { provider: argv.provider as ProviderName, baseUrl: argv.baseUrl, replayFile: argv.replay },
      model: argv.model,
      dbRoot: argv.dbRoot,
      store,
      concurrency: argv.concurrency,
      maxCostUsd: argv.maxCostUsd,
      maxCalls: argv.maxCalls,
      ...(batch ? { batch } : {}),
    });
    return await judgeValidationItems(sets, {
      judge,
      executor: engine,
      concurrency: argv.concurrency,
      hasDatabase: (db) => engine.hasDatabase(db),
      name: argv.liveName,
      onExecProgress: (d, t) => exec.update(d, t),
      onJudgeProgress: (d, t) => {
        exec.stop();
        judging.update(d, t);
      },
    });
  } finally {
    release();
    exec.stop();
    judging.stop();
    await engine.close();
    store.close();
  }
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
    atLeast('iterations', argv.iterations, 1);
    wholeNumber('seed', argv.seed);
    if ((argv.judge ?? []).length === 0 && !argv.provider) throw new UserError('name at least one --judge NAME=SOURCE (or a live judge with --provider)');
    checkLlmCallOptions(argv);
    const live = argv.provider !== undefined;
    checkOutputs(argv, {
      inputs: {
        '--set': argv.set,
        '--judge': (argv.judge ?? []).flatMap((spec) => parseJudgeSpec(spec).sources),
        '--db-root': argv.dbRoot,
        '--replay': argv.replay,
        '--store': live ? argv.store : undefined,
      },
      outputs: { '--store': live ? argv.store : undefined },
    });
    if (argv.batch && !argv.provider) throw new UserError('--batch applies to a live judge (--provider); recorded judges are only read');
    const sets = loadValidationSets(argv.set);
    const judges = (argv.judge ?? []).map((spec) => {
      const { name, sources } = parseJudgeSpec(spec);
      return loadJudge(name, sources, sets);
    });
    if (argv.provider) judges.push(await liveJudge(argv, sets));
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
