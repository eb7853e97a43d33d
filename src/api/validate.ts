import { loadValidationSets, type ValidationSet } from '../benchmark/validation-set.js';
import { ExecutionEngine } from '../execution/engine.js';
import { createLiveJudge } from '../judge/setup.js';
import { validateReport } from '../report/validate-report.js';
import { openRunStore } from '../store/run-store.js';
import { parseEnsembleSpec } from '../validate/ensembles.js';
import { judgeValidationItems } from '../validate/live.js';
import { loadJudge, parseJudgeSpec, type JudgeVerdicts } from '../validate/sources.js';
import { validate as validateJudges, type ValidateResult } from '../validate/validate.js';
import { LLM_CHECK_ORDER, batchModeOptions } from './llm-options.js';
import { resolveOptions, type OptionValues, type ParsedOptions } from './option-table.js';
import { promptHashes, withProvenance, type RunRecord } from './provenance.js';
import type { CommandResult, RunHooks } from './types.js';
import { VALIDATE_OPTIONS } from './validate-options.js';

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
    record.sqlite = engine.sqlite;
    record.prompts = promptHashes([prover, refuter, refuterMatch]);
    record.models = [{ role: 'judge', provider: o.provider!, model: verdicts.name }];
    // What the engine noticed (databases reached through links outside --db-root, --workers lowered, no /proc), as score, judge and audit say it.
    return { ...verdicts, notes: [...verdicts.notes, ...engine.notes] };
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
