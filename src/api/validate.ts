import { loadValidationSets, type ValidationSet } from '../benchmark/validation-set.js';
import { UserError } from '../errors.js';
import { ExecutionEngine } from '../execution/engine.js';
import { createLiveJudge } from '../judge/setup.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import { validateReport } from '../report/validate-report.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { parseEnsembleSpec } from '../validate/ensembles.js';
import { judgeValidationItems } from '../validate/live.js';
import { loadJudge, parseJudgeSpec, type JudgeVerdicts } from '../validate/sources.js';
import { validate as validateJudges, type ValidateResult } from '../validate/validate.js';
import { BATCH_OPTIONS, LLM_CALL_OPTIONS, batchModeOptions, checkLlmCallOptions } from './llm-options.js';
import { scopedOptions, type OptionTable, type OptionValues } from './option-table.js';
import { atLeast, wholeNumber } from './option-checks.js';
import { promptHashes, withProvenance, type RunRecord } from './provenance.js';
import type { CommandResult, RunHooks } from './types.js';

/** `sqlboard validate`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const VALIDATE_OPTIONS = {
  set: { type: 'string', array: true, demandOption: true, describe: 'Validation set: ROSE-VEC .json or sqlboard .jsonl (repeatable)' },
  judge: { type: 'string', array: true, describe: 'NAME=SOURCE[,SOURCE...]: verdict JSONL files or ROSE output directories (repeatable)' },
  ensemble: { type: 'string', array: true, describe: 'majority:a,b,c | unanimity:a,b,c | and:a,b | or:a,b (repeatable)' },
  repeats: { type: 'string', array: true, describe: 'a,b,c: judges that are repeat runs of one configuration; reports their spread' },
  baseline: { type: 'string', describe: 'Judge or ensemble the others must beat on κ, accuracy, MCC and F1' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed' },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples' },
  provider: { choices: PROVIDER_NAMES, describe: 'Also run a live judge over the items: openai, gemini or replay' },
  model: { type: 'string', describe: 'Live judge model id' },
  'db-root': { type: 'string', describe: 'Live judge: directory holding <db_id>/<db_id>.sqlite' },
  'live-name': { type: 'string', describe: 'Live judge name (default <model>-<snapshot date>)' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store (live judge cache and verdicts)' },
  ...scopedOptions(LLM_CALL_OPTIONS, 'Live judge'),
  ...scopedOptions(BATCH_OPTIONS, 'Live judge'),
} as const satisfies OptionTable;

export type ValidateOptions = OptionValues<typeof VALIDATE_OPTIONS> & RunHooks;

/** The live judge over the sets' own items, wired like `judge` (src/judge/setup.ts). */
async function liveJudge(o: ValidateOptions, sets: ValidationSet[], concurrency: number, record: RunRecord): Promise<JudgeVerdicts> {
  if (!o.model || !o.dbRoot) throw new UserError('--provider needs --model and --db-root (the databases of the sets\' items)');
  const batch = batchModeOptions(o, o.onBatchProgress);
  const store = openRunStore(o.store ?? DEFAULT_STORE);
  const engine = new ExecutionEngine({ dbRoot: o.dbRoot, store });
  const release = o.onStoppable?.(() => (engine.interruptNow(), store.close())) ?? (() => {});
  try {
    const judge = createLiveJudge({
      providerConfig: { provider: o.provider!, baseUrl: o.baseUrl, replayFile: o.replay },
      model: o.model,
      dbRoot: o.dbRoot,
      store,
      concurrency,
      maxCostUsd: o.maxCostUsd,
      maxCalls: o.maxCalls,
      ...(batch ? { batch } : {}),
    });
    const verdicts = await judgeValidationItems(sets, {
      judge,
      executor: engine,
      concurrency,
      hasDatabase: (db) => engine.hasDatabase(db),
      name: o.liveName,
      onExecProgress: (d, t) => o.onProgress?.('executing', d, t),
      onJudgeProgress: (d, t) => o.onProgress?.('judging', d, t),
    });
    const { prover, refuter, refuterMatch } = judge.deps.prompts;
    record.databases = await engine.databaseHashes();
    record.prompts = promptHashes([prover, refuter, refuterMatch]);
    record.models = [{ role: 'judge', provider: o.provider!, model: verdicts.name }];
    return verdicts;
  } finally {
    release();
    await engine.close();
    store.close();
  }
}

/** Compares judges with human labels on validation sets: κ, MCC, F1, ensembles, the upgrade rule (`sqlboard validate`). */
export async function validate(opts: ValidateOptions): Promise<CommandResult<ValidateResult & Record<string, unknown>>> {
  const started = new Date();
  const seed = opts.seed ?? 42;
  const iterations = opts.iterations ?? 2000;
  atLeast('iterations', iterations, 1);
  wholeNumber('seed', seed);
  if ((opts.judge ?? []).length === 0 && !opts.provider) throw new UserError('name at least one --judge NAME=SOURCE (or a live judge with --provider)');
  const concurrency = checkLlmCallOptions(opts);
  if (opts.batch && !opts.provider) throw new UserError('--batch applies to a live judge (--provider); recorded judges are only read');
  const sets = loadValidationSets(opts.set);
  const judges = (opts.judge ?? []).map((spec) => {
    const { name, sources } = parseJudgeSpec(spec);
    return loadJudge(name, sources, sets);
  });
  const record: RunRecord = { command: 'validate', options: opts, started, seed };
  if (opts.provider) judges.push(await liveJudge(opts, sets, concurrency, record));
  const result = validateJudges({
    sets,
    judges,
    ensembles: (opts.ensemble ?? []).map(parseEnsembleSpec),
    repeats: (opts.repeats ?? []).map((g) => g.split(',').map((s) => s.trim()).filter((s) => s !== '')),
    baseline: opts.baseline,
    seed,
    iterations,
  });
  return withProvenance({ report: validateReport(result), json: result as ValidateResult & Record<string, unknown>, notes: judges.flatMap((j) => j.notes) }, record);
}
