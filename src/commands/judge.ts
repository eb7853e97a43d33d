import type { Argv, CommandModule } from 'yargs';
import { writeItems } from '../benchmark/items.js';
import { loadBenchmark } from '../benchmark/load-questions.js';
import { loadPredictions } from '../benchmark/load-predictions.js';
import type { RepairName } from '../benchmark/repairs.js';
import { UserError } from '../errors.js';
import { addBatchOptions, addLlmCallOptions, batchModeOptions, batchSummaryLine, checkLlmCallOptions } from './llm-options.js';
import type { BatchArgs } from './llm-options.js';
import { atLeast } from '../api/option-checks.js';
import { redactDeep } from '../llm/secrets.js';
import { ExecutionEngine } from '../execution/engine.js';
import { DEFAULT_MAX_REASKS } from '../judge/cascade.js';
import { DEFAULT_PREVIEW_ROWS } from '../judge/preview.js';
import { judgeItemRecords } from '../judge/records.js';
import { formatReplay, replayEntries } from '../llm/replay-export.js';
import { parsePriceFlag, readPriceFile } from '../llm/pricing.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import { sumWaves } from '../llm/batch/waves.js';
import { batchProgressLine } from './batch-progress.js';
import type { ProviderName } from '../llm/providers/types.js';
import { DEFAULT_RETRY } from '../llm/retry.js';
import { runJudge } from '../judge/run.js';
import { createLiveJudge } from '../judge/setup.js';
import { summarizeJudge } from '../judge/summary.js';
import { judgeJson, judgeReport } from '../report/judge-report.js';
import { judgeExplorer } from '../report/explorer-judge.js';
import { runPreviews } from '../execution/run-previews.js';
import { emitReport, processIo, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { loadNotes } from '../report/load-notes.js';
import { terminalProgress } from './progress.js';
import { stopCleanlyOnSignals } from './interrupt.js';
import { DEFAULT_STORE, openRunStore } from '../store/run-store.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { finishRun } from './outcome.js';
import { VERBS } from './verbs.js';
import { addRepairOption } from './repair-option.js';

interface JudgeArgs extends ReportOptions, BatchArgs {
  repair?: RepairName[];
  questions: string;
  dbRoot: string;
  system: string[];
  provider: string;
  model: string;
  baseUrl?: string;
  replay?: string;
  apiVersion?: string;
  structuredOutput: boolean;
  concurrency: number;
  timeout: number;
  execTimeout: number;
  maxAttempts: number;
  maxCostUsd?: number;
  maxCalls?: number;
  price?: string;
  priceFile?: string;
  snapshot?: string;
  descriptions?: string;
  previewRows: number;
  maxReasks: number;
  temperature: number;
  maxOutputTokens?: number;
  store: string;
  items?: string;
  record?: string;
  workers?: number;
}


export const judgeCommand: CommandModule<object, JudgeArgs> = {
  ...VERBS.judge,
  builder: (y: Argv) =>
    addReportOptions(
      addBatchOptions(addLlmCallOptions(
      addRepairOption(y)
        .option('questions', { type: 'string', demandOption: true, describe: 'Questions file, BIRD or Spider format' })
        .option('db-root', { type: 'string', demandOption: true, describe: 'Directory holding <db_id>/<db_id>.sqlite' })
        .option('system', { type: 'string', array: true, demandOption: true, describe: 'NAME=FILE predictions (repeatable)' })
        .option('provider', { choices: PROVIDER_NAMES as string[], demandOption: true, describe: 'openai (OPENAI_API_KEY), gemini (GEMINI_API_KEY), replay (--replay FILE)' })
        .option('model', { type: 'string', demandOption: true, describe: 'Model id, e.g. gpt-4o-2024-08-06, gemini-2.5-pro' })
        .option('structured-output', {
          type: 'boolean',
          default: true,
          describe: 'Ask for answers constrained to the verdict JSON schema (OpenAI response_format, Gemini responseSchema); --no-structured-output for servers that refuse it',
        })
        .option('api-version', { type: 'string', describe: 'gemini: API version path (default v1beta)' })
        .option('timeout', { type: 'number', default: 120, describe: 'One deadline per call attempt in seconds, over headers and body (retried)' })
        .option('max-attempts', { type: 'number', default: DEFAULT_RETRY.maxAttempts, describe: 'Attempts per call on 429/5xx/timeouts (Retry-After honoured)' })
        .option('price', { type: 'string', describe: 'INPUT,OUTPUT price in USD per million tokens (overrides the table)' })
        .option('price-file', { type: 'string', describe: 'JSON {"model": {"input": n, "output": n}} merged over the price table' })
        .option('snapshot', { type: 'string', describe: 'Snapshot date naming the judge <model>-<date> when the model id has none' })
        .option('descriptions', { type: 'string', describe: "BIRD database_description root (<dir>/<db_id>/<table>.csv); default <db-root>/<db_id>/database_description" })
        .option('preview-rows', { type: 'number', default: DEFAULT_PREVIEW_ROWS, describe: 'Result rows shown to the judge' })
        .option('max-reasks', { type: 'number', default: DEFAULT_MAX_REASKS, describe: 'Re-asks after an invalid answer before the item is unscored' })
        .option('temperature', { type: 'number', default: 0, describe: 'Sampling temperature (part of the cache key)' })
        .option('max-output-tokens', { type: 'number', describe: 'Output tokens allowed per call, thinking included (default 2048; 16384 for reasoning models: o-series, gpt-5, gemini-2.5); part of the cache key' })
        .option('exec-timeout', { type: 'number', default: 30, describe: 'Per-query SQL time limit in seconds' })
        .option('workers', { type: 'number', describe: 'Parallel SQL execution processes (default: one per core)' })
        .option('store', { type: 'string', default: DEFAULT_STORE, describe: 'Run store: executions, LLM responses, verdicts (makes runs resumable)' })
        .option('items', { type: 'string', describe: 'Write one JSON line per (system, task) to this file' })
        .option('record', { type: 'string', describe: 'Write the answers this run used as a replay file (--provider replay --replay FILE)' }))),
    ) as unknown as Argv<JudgeArgs>,
  handler: async (argv) => {
    checkLlmCallOptions(argv);
    atLeast('max-attempts', argv.maxAttempts, 1);
    atLeast('max-output-tokens', argv.maxOutputTokens, 1);
    atLeast('preview-rows', argv.previewRows, 0);
    atLeast('max-reasks', argv.maxReasks, 0);
    if (!(argv.timeout > 0)) throw new UserError('--timeout must be a positive number of seconds');
    const batchProgress = batchProgressLine();
    const batch = batchModeOptions(argv, (p) => {
      // The bars exist by the time a wave polls.
      execProgress.stop();
      judgeProgress.stop();
      batchProgress(p);
    });
    const specs = parseSystemSpecs(argv.system);
    checkOutputs(argv, {
      inputs: {
        '--questions': argv.questions,
        '--db-root': argv.dbRoot,
        '--system': specs.map(([, file]) => file),
        '--descriptions': argv.descriptions,
        '--replay': argv.replay,
        '--price-file': argv.priceFile,
        '--store': argv.store,
      },
      outputs: { '--items': argv.items, '--record': argv.record, '--store': argv.store },
    });
    const bench = loadBenchmark(argv.questions);
    const systems = specs.map(([name, file]) => loadPredictions(file, bench, name, { repairs: argv.repair ?? [] }));
    const store = openRunStore(argv.store);
    const engine = new ExecutionEngine({ dbRoot: argv.dbRoot, timeoutSec: argv.execTimeout, store, ...(argv.workers ? { workers: argv.workers } : {}) });
    const release = stopCleanlyOnSignals({ store: argv.store, stopNow: () => (engine.interruptNow(), store.close()) });
    const execProgress = terminalProgress('executing');
    const judgeProgress = terminalProgress('judging');
    try {
      engine.checkDatabases(bench.tasks);
      const judge = createLiveJudge({
        providerConfig: {
          provider: argv.provider as ProviderName,
          baseUrl: argv.baseUrl,
          replayFile: argv.replay,
          apiVersion: argv.apiVersion,
          structuredOutput: argv.structuredOutput,
        },
        model: argv.model,
        dbRoot: argv.dbRoot,
        descriptionsRoot: argv.descriptions,
        store,
        concurrency: argv.concurrency,
        timeoutMs: Math.round(argv.timeout * 1000),
        retry: { ...DEFAULT_RETRY, maxAttempts: argv.maxAttempts },
        maxCostUsd: argv.maxCostUsd,
        maxCalls: argv.maxCalls,
        price: argv.price !== undefined ? parsePriceFlag(argv.price) : undefined,
        priceTable: argv.priceFile !== undefined ? readPriceFile(argv.priceFile) : undefined,
        snapshot: argv.snapshot,
        previewRows: argv.previewRows,
        maxReasks: argv.maxReasks,
        sampling: { temperature: argv.temperature, maxOutputTokens: argv.maxOutputTokens },
        ...(batch ? { batch } : {}),
      });
      const run = await runJudge({
        bench,
        systems,
        executor: engine,
        deps: judge.deps,
        concurrency: argv.concurrency,
        // Recording replays every call through the response cache so each one is seen.
        verdicts: argv.record ? undefined : judge.verdicts,
        judgeKey: judge.judgeKey,
        judgeName: judge.name,
        ...(judge.batch ? { batch: judge.batch } : {}),
        onExecProgress: (d, t) => execProgress.update(d, t),
        onJudgeProgress: (d, t) => {
          execProgress.stop();
          judgeProgress.update(d, t);
        },
      });
      execProgress.stop();
      judgeProgress.stop();
      if (argv.record && judge.cache) processIo.writeFile(argv.record, formatReplay(replayEntries(judge.cache, judge.client.usedKeys)), '--record');
      if (argv.items) writeItems(argv.items, redactDeep(judgeItemRecords(run.items, bench)));
      const summaries = summarizeJudge(run.items, systems.map((s) => s.system));
      for (const line of loadNotes(argv.questions, bench, systems)) process.stderr.write(line);
      const over = judge.client.stats.billedBeyondWorstUsd;
      if (over > 0) {
        process.stderr.write(
          `sqlboard: the provider billed ${over.toFixed(4)} USD beyond the worst case of the calls it answered (it reported more tokens than counted or allowed); the cap held for everything else.\n`,
        );
      }
      if (judge.batch) {
        process.stderr.write(batchSummaryLine(sumWaves(judge.batch.driver.reports)));
      }
      if (run.waiting) {
        process.stderr.write(`sqlboard: ${run.waiting} items wait for submitted batches (ids in ${argv.store}; \`sqlboard batch status\`): run the same command again to collect them.\n`);
      }
      if (run.stopped) {
        const left = run.items.filter((r) => r.route === 'not-judged').length;
        process.stderr.write(`sqlboard: stopped: ${run.stopped}; ${left} items not judged. Everything judged is kept in ${argv.store}: re-run to continue.\n`);
      }
      const ctx = { questions: argv.questions, tasks: bench.tasks.length, deps: judge.deps, price: judge.price };
      const report = judgeReport(run, summaries, ctx);
      if (argv.html !== undefined) {
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
      emitReport(report, judgeJson(run, summaries, ctx), argv);
      const unscored = run.items.filter((r) => r.correct === null).length;
      finishRun({
        // A budget stop leaves its items unscored (correct: null), so the count covers it.
        partial: unscored > 0 || run.stopped ? [`${unscored} of ${run.items.length} items unscored`] : [],
        belowThreshold: [],
      });
    } finally {
      release();
      execProgress.stop();
      judgeProgress.stop();
      await engine.close();
      store.close();
    }
  },
};
