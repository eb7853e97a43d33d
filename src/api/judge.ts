import { writeItems } from '../benchmark/items.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { ExecutionEngine } from '../execution/engine.js';
import { judgeItemRecords } from '../judge/records.js';
import { runJudge } from '../judge/run.js';
import { createLiveJudge } from '../judge/setup.js';
import { summarizeJudge } from '../judge/summary.js';
import { sumWaves } from '../llm/batch/waves.js';
import { parsePriceFlag, readPriceFile } from '../llm/pricing.js';
import { formatReplay, replayEntries } from '../llm/replay-export.js';
import { DEFAULT_RETRY } from '../llm/retry.js';
import { redactDeep } from '../llm/secrets.js';
import { unknownUsageNote } from '../llm/usage.js';
import { judgeJson, judgeReport } from '../report/judge-report.js';
import { judgeExplorer } from '../report/explorer-judge.js';
import { runPreviews } from '../execution/run-previews.js';
import { loadNotes } from '../report/load-notes.js';
import { processIo } from '../report/output.js';
import { openRunStore } from '../store/run-store.js';
import { BATCH_CHECK_ORDER, LLM_CHECK_ORDER, batchModeOptions, batchSummaryNote } from './llm-options.js';
import { resolveOptions, type OptionValues } from './option-table.js';
import { promptHashes, withProvenance, writeMetaBeside } from './provenance.js';
import type { GatedResult, RunHooks } from './types.js';
import { JUDGE_OPTIONS } from './judge-options.js';

/** The order in which judge has always reported option errors. */
const JUDGE_CHECK_ORDER = [...LLM_CHECK_ORDER, 'max-attempts', 'max-output-tokens', 'preview-rows', 'max-reasks', 'timeout', ...BATCH_CHECK_ORDER] as const;

export type JudgeOptions = OptionValues<typeof JUDGE_OPTIONS> &
  RunHooks & {
    /** Add the per-item explorer (results, SQL, verdicts) to the report, for its HTML page. */
    explorer?: boolean;
  };

/** ROSE-style Prover/Refuter LLM judge over each system's predictions (`sqlboard judge`). */
export async function judge(opts: JudgeOptions): Promise<GatedResult> {
  const started = new Date();
  const o = resolveOptions(JUDGE_OPTIONS, opts, JUDGE_CHECK_ORDER);
  const { concurrency, maxAttempts, previewRows, maxReasks, timeout, store: storeFile } = o;
  const batch = batchModeOptions(o, opts.onBatchProgress);
  const specs = parseSystemSpecs(opts.system);
  const bench = loadBenchmark(opts.questions);
  const systems = specs.map(([name, file]) => loadPredictions(file, bench, name, { repairs: opts.repair ?? [] }));
  const store = openRunStore(storeFile);
  const engine = new ExecutionEngine({ dbRoot: opts.dbRoot, timeoutSec: o.execTimeout, store, ...(opts.workers ? { workers: opts.workers } : {}) });
  const release = opts.onStoppable?.(() => (engine.interruptNow(), store.close())) ?? (() => {});
  try {
    engine.checkDatabases(bench.tasks);
    const live = createLiveJudge({
      providerConfig: {
        provider: opts.provider,
        baseUrl: opts.baseUrl,
        replayFile: opts.replay,
        apiVersion: opts.apiVersion,
        structuredOutput: o.structuredOutput,
      },
      model: opts.model,
      dbRoot: opts.dbRoot,
      descriptionsRoot: opts.descriptions,
      store,
      concurrency,
      timeoutMs: Math.round(timeout * 1000),
      retry: { ...DEFAULT_RETRY, maxAttempts },
      maxCostUsd: opts.maxCostUsd,
      maxCalls: opts.maxCalls,
      price: opts.price !== undefined ? parsePriceFlag(opts.price) : undefined,
      priceTable: opts.priceFile !== undefined ? readPriceFile(opts.priceFile) : undefined,
      snapshot: opts.snapshot,
      previewRows,
      maxReasks,
      sampling: { temperature: o.temperature, maxOutputTokens: opts.maxOutputTokens },
      ...(batch ? { batch } : {}),
    });
    const run = await runJudge({
      bench,
      systems,
      executor: engine,
      deps: live.deps,
      concurrency,
      // Recording replays every call through the response cache so each one is seen.
      verdicts: opts.record ? undefined : live.verdicts,
      judgeKey: live.judgeKey,
      judgeName: live.name,
      ...(live.batch ? { batch: live.batch } : {}),
      onExecProgress: (d, t) => opts.onProgress?.('executing', d, t),
      onJudgeProgress: (d, t) => opts.onProgress?.('judging', d, t),
    });
    if (opts.record && live.cache) processIo.writeFile(opts.record, formatReplay(replayEntries(live.cache, live.client.usedKeys)), '--record');
    if (opts.items) writeItems(opts.items, redactDeep(judgeItemRecords(run.items, bench)));
    const summaries = summarizeJudge(run.items, systems.map((s) => s.system));
    const notes = [...engine.notes, ...loadNotes(opts.questions, bench, systems)];
    const over = live.client.stats.billedBeyondWorstUsd;
    if (over > 0) {
      notes.push(`the provider billed ${over.toFixed(4)} USD beyond the worst case of the calls it answered (it reported more tokens than counted or allowed); the cap held for everything else.`);
    }
    if (live.batch) notes.push(batchSummaryNote(sumWaves(live.batch.driver.reports)));
    const unknownUsage = unknownUsageNote(live.client.stats, live.price !== undefined);
    if (unknownUsage) notes.push(unknownUsage);
    if (run.waiting) {
      notes.push(`${run.waiting} items wait for submitted batches (ids in ${storeFile}; \`sqlboard batch status\`): run the same command again to collect them.`);
    }
    if (run.stopped) {
      const left = run.items.filter((r) => r.route === 'not-judged').length;
      notes.push(`stopped: ${run.stopped}; ${left} items not judged. Everything judged is kept in ${storeFile}: re-run to continue.`);
    }
    const ctx = { questions: opts.questions, tasks: bench.tasks.length, deps: live.deps, price: live.price };
    const unscored = run.items.filter((r) => r.correct === null).length;
    const report = judgeReport(run, summaries, ctx);
    if (opts.explorer) {
      report.explorer = judgeExplorer(
        {
          bench,
          systems: systems.map((s) => ({ name: s.system, sql: (id) => s.byTask.get(id)?.sql })),
          items: redactDeep(judgeItemRecords(run.items, bench)),
          previews: await runPreviews(engine, bench, systems),
        },
        run.judge,
      );
    }
    const { prover, refuter, refuterMatch } = live.deps.prompts;
    const provenance = {
      command: 'judge',
      options: opts,
      started,
      databases: await engine.databaseHashes(),
      sqlite: engine.sqlite,
      prompts: promptHashes([prover, refuter, refuterMatch]),
      models: [{ role: 'judge', provider: opts.provider, model: run.judge }],
    };
    const result = withProvenance({
      report,
      json: judgeJson(run, summaries, ctx) as Record<string, unknown>,
      notes,
      metrics: [],
      // A budget stop leaves its items unscored (correct: null), so the count covers it.
      partial: unscored > 0 || run.stopped ? [`${unscored} of ${run.items.length} items unscored`] : [],
    }, provenance);
    if (opts.items) writeMetaBeside('--items', opts.items, result);
    return result;
  } finally {
    release();
    await engine.close();
    store.close();
  }
}
