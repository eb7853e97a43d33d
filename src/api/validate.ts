import { loadValidationSets, type ValidationSet } from '../benchmark/validation-set.js';
import { ExecutionEngine } from '../execution/engine.js';
import { createLiveJudge } from '../judge/setup.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import { validateReport } from '../report/validate-report.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { parseEnsembleSpec } from '../validate/ensembles.js';
import { judgeValidationItems } from '../validate/live.js';
import { loadJudge, parseJudgeSpec, type JudgeVerdicts } from '../validate/sources.js';
import { validate as validateJudges, type ValidateResult } from '../validate/validate.js';
import { BATCH_OPTIONS, LLM_CALL_OPTIONS, LLM_CHECK_ORDER, batchModeOptions } from './llm-options.js';
import { resolveOptions, scopedOptions, type OptionTable, type OptionValues, type ParsedOptions } from './option-table.js';
import { refuse, whole } from './option-checks.js';
import { promptHashes, withProvenance, type RunRecord } from './provenance.js';
import type { CommandResult, RunHooks } from './types.js';

const BATCH = scopedOptions(BATCH_OPTIONS, 'Live judge');

/** `sqlboard validate`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const VALIDATE_OPTIONS = {
  set: { type: 'string', array: true, demandOption: true, describe: 'Validation set: ROSE-VEC .json or sqlboard .jsonl (repeatable)' },
  judge: {
    type: 'string',
    array: true,
    describe: 'NAME=SOURCE[,SOURCE...]: verdict JSONL files or ROSE output directories (repeatable)',
    checks: [refuse((judges, o) => ((judges as string[] | undefined) ?? []).length === 0 && !o.provider, 'name at least one --judge NAME=SOURCE (or a live judge with --provider)')],
  },
  ensemble: { type: 'string', array: true, describe: 'majority:a,b,c | unanimity:a,b,c | and:a,b | or:a,b (repeatable)' },
  repeats: { type: 'string', array: true, describe: 'a,b,c: judges that are repeat runs of one configuration; reports their spread' },
  baseline: { type: 'string', describe: 'Judge or ensemble the others must beat on κ, accuracy, MCC and F1' },
  seed: { type: 'number', default: 42, describe: 'Bootstrap seed', checks: [whole] },
  iterations: { type: 'number', default: 2000, describe: 'Bootstrap resamples', min: 1 },
  provider: {
    choices: PROVIDER_NAMES,
    describe: 'Also run a live judge over the items: openai, gemini or replay',
    checks: [refuse((provider, o) => provider !== undefined && (!o.model || !o.dbRoot), "--provider needs --model and --db-root (the databases of the sets' items)")],
  },
  model: { type: 'string', describe: 'Live judge model id' },
  'db-root': { type: 'string', describe: 'Live judge: directory holding <db_id>/<db_id>.sqlite' },
  'live-name': { type: 'string', describe: 'Live judge name (default <model>-<snapshot date>)' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store (live judge cache and verdicts)' },
  ...scopedOptions(LLM_CALL_OPTIONS, 'Live judge'),
  ...BATCH,
  batch: { ...BATCH.batch, checks: [refuse((batch, o) => batch === true && !o.provider, '--batch applies to a live judge (--provider); recorded judges are only read'), ...BATCH.batch.checks] },
} as const satisfies OptionTable;

/** The order in which validate has always reported option errors (the live judge's last). */
const VALIDATE_CHECK_ORDER = ['iterations', 'seed', 'judge', ...LLM_CHECK_ORDER, 'batch', 'provider', 'batch-poll', 'batch-wait'] as const;

export type ValidateOptions = OptionValues<typeof VALIDATE_OPTIONS> & RunHooks;

/** The live judge over the sets' own items, wired like `judge` (src/judge/setup.ts); the table's rules made sure of --model and --db-root. */
async function liveJudge(o: ValidateOptions & ParsedOptions<typeof VALIDATE_OPTIONS>, sets: ValidationSet[], record: RunRecord): Promise<JudgeVerdicts> {
  const batch = batchModeOptions(o, o.onBatchProgress);
  const store = openRunStore(o.store);
  const engine = new ExecutionEngine({ dbRoot: o.dbRoot!, store });
  const release = o.onStoppable?.(() => (engine.interruptNow(), store.close())) ?? (() => {});
  try {
    const judge = createLiveJudge({
      providerConfig: { provider: o.provider!, baseUrl: o.baseUrl, replayFile: o.replay },
      model: o.model!,
      dbRoot: o.dbRoot!,
      store,
      concurrency: o.concurrency,
      maxCostUsd: o.maxCostUsd,
      maxCalls: o.maxCalls,
      ...(batch ? { batch } : {}),
    });
    const verdicts = await judgeValidationItems(sets, {
      judge,
      executor: engine,
      concurrency: o.concurrency,
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
  const o = resolveOptions(VALIDATE_OPTIONS, opts, VALIDATE_CHECK_ORDER);
  const { seed, iterations } = o;
  const sets = loadValidationSets(opts.set);
  const judges = (opts.judge ?? []).map((spec) => {
    const { name, sources } = parseJudgeSpec(spec);
    return loadJudge(name, sources, sets);
  });
  const record: RunRecord = { command: 'validate', options: opts, started, seed };
  if (opts.provider) judges.push(await liveJudge(o, sets, record));
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
