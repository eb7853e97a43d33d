import { writeItems } from '../benchmark/items.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { ExecutionEngine } from '../execution/engine.js';
import { DEFAULT_MAX_REASKS } from '../judge/cascade.js';
import { DEFAULT_PREVIEW_ROWS } from '../judge/preview.js';
import { judgeItemRecords } from '../judge/records.js';
import { runJudge } from '../judge/run.js';
import { createLiveJudge } from '../judge/setup.js';
import { summarizeJudge } from '../judge/summary.js';
import { sumWaves } from '../llm/batch/waves.js';
import { parsePriceFlag, readPriceFile } from '../llm/pricing.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import { formatReplay, replayEntries } from '../llm/replay-export.js';
import { DEFAULT_RETRY } from '../llm/retry.js';
import { redactDeep } from '../llm/secrets.js';
import { judgeJson, judgeReport } from '../report/judge-report.js';
import { judgeExplorer } from '../report/explorer-judge.js';
import { runPreviews } from '../execution/run-previews.js';
import { loadNotes } from '../report/load-notes.js';
import { processIo } from '../report/output.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { BATCH_CHECK_ORDER, BATCH_OPTIONS, LLM_CALL_OPTIONS, LLM_CHECK_ORDER, batchModeOptions, batchSummaryNote } from './llm-options.js';
import { resolveOptions, type OptionTable, type OptionValues } from './option-table.js';
import { REPAIR_OPTIONS } from './shared-options.js';
import { positiveSeconds } from './option-checks.js';
import { promptHashes, withProvenance, writeMetaBeside } from './provenance.js';
import type { GatedResult, RunHooks } from './types.js';

/** `sqlboard judge`'s options: the CLI's flags and the library's options object (camelCase) come from here. */
export const JUDGE_OPTIONS = {
  ...REPAIR_OPTIONS,
  questions: { type: 'string', demandOption: true, describe: 'Questions file, BIRD or Spider format' },
  'db-root': { type: 'string', demandOption: true, describe: 'Directory holding <db_id>/<db_id>.sqlite' },
  system: { type: 'string', array: true, demandOption: true, describe: 'NAME=FILE predictions (repeatable)' },
  provider: { choices: PROVIDER_NAMES, demandOption: true, describe: 'openai (OPENAI_API_KEY), gemini (GEMINI_API_KEY), replay (--replay FILE)' },
  model: { type: 'string', demandOption: true, describe: 'Model id, e.g. gpt-4o-2024-08-06, gemini-2.5-pro' },
  'structured-output': {
    type: 'boolean',
    default: true,
    describe: 'Ask for answers constrained to the verdict JSON schema (OpenAI response_format, Gemini responseSchema); --no-structured-output for servers that refuse it',
  },
  'api-version': { type: 'string', describe: 'gemini: API version path (default v1beta)' },
  timeout: { type: 'number', default: 120, describe: 'One deadline per call attempt in seconds, over headers and body (retried)', checks: [positiveSeconds] },
  'max-attempts': { type: 'number', default: DEFAULT_RETRY.maxAttempts, describe: 'Attempts per call on 429/5xx/timeouts (Retry-After honoured)', min: 1 },
  price: { type: 'string', describe: 'INPUT,OUTPUT price in USD per million tokens (overrides the table)' },
  'price-file': { type: 'string', describe: 'JSON {"model": {"input": n, "output": n}} merged over the price table' },
  snapshot: { type: 'string', describe: 'Snapshot date naming the judge <model>-<date> when the model id has none' },
  descriptions: { type: 'string', describe: "BIRD database_description root (<dir>/<db_id>/<table>.csv); default <db-root>/<db_id>/database_description" },
  'preview-rows': { type: 'number', default: DEFAULT_PREVIEW_ROWS, describe: 'Result rows shown to the judge', min: 0 },
  'max-reasks': { type: 'number', default: DEFAULT_MAX_REASKS, describe: 'Re-asks after an invalid answer before the item is unscored', min: 0 },
  temperature: { type: 'number', default: 0, describe: 'Sampling temperature (part of the cache key)' },
  'max-output-tokens': {
    type: 'number',
    describe: 'Output tokens allowed per call, thinking included (default 2048; 16384 for reasoning models: o-series, gpt-5, gemini-2.5); part of the cache key',
    min: 1,
  },
  'exec-timeout': { type: 'number', default: 30, describe: 'Per-query SQL time limit in seconds' },
  workers: { type: 'number', describe: 'Parallel SQL execution processes (default: one per core)' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store: executions, LLM responses, verdicts (makes runs resumable)' },
  items: { type: 'string', describe: 'Write one JSON line per (system, task) to this file' },
  record: { type: 'string', describe: 'Write the answers this run used as a replay file (--provider replay --replay FILE)' },
  ...LLM_CALL_OPTIONS,
  ...BATCH_OPTIONS,
} as const satisfies OptionTable;

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
    const notes = loadNotes(opts.questions, bench, systems);
    const over = live.client.stats.billedBeyondWorstUsd;
    if (over > 0) {
      notes.push(`the provider billed ${over.toFixed(4)} USD beyond the worst case of the calls it answered (it reported more tokens than counted or allowed); the cap held for everything else.`);
    }
    if (live.batch) notes.push(batchSummaryNote(sumWaves(live.batch.driver.reports)));
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
