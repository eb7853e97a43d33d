import type { Argv, CommandModule } from 'yargs';
import { judge } from '../api/judge.js';
import type { RepairName } from '../benchmark/repairs.js';
import { addBatchOptions, addLlmCallOptions } from './llm-options.js';
import type { BatchArgs } from './llm-options.js';
import { DEFAULT_MAX_REASKS } from '../judge/cascade.js';
import { DEFAULT_PREVIEW_ROWS } from '../judge/preview.js';
import type { BatchFallback, BatchWait } from '../llm/batch/waves.js';
import { PROVIDER_NAMES } from '../llm/providers/index.js';
import type { ProviderName } from '../llm/providers/types.js';
import { DEFAULT_RETRY } from '../llm/retry.js';
import { emitReport, type ReportOptions } from '../report/output.js';
import { addReportOptions, checkOutputs } from './report-options.js';
import { parseSystemSpecs } from '../benchmark/system-specs.js';
import { runProgress } from './progress.js';
import { DEFAULT_STORE } from '../store/run-store.js';
import { finishRun, printNotes } from './outcome.js';
import { stopOnSignals } from './interrupt.js';
import { apiOptions } from './api-options.js';
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
    checkOutputs(argv, {
      inputs: {
        '--questions': argv.questions,
        '--db-root': argv.dbRoot,
        '--system': parseSystemSpecs(argv.system).map(([, file]) => file),
        '--descriptions': argv.descriptions,
        '--replay': argv.replay,
        '--price-file': argv.priceFile,
        '--store': argv.store,
      },
      outputs: { '--items': argv.items, '--record': argv.record, '--store': argv.store },
    });
    const progress = runProgress();
    let result;
    try {
      result = await judge({
        ...apiOptions(argv),
        provider: argv.provider as ProviderName,
        batchWait: argv.batchWait as BatchWait,
        batchFallback: argv.batchFallback as BatchFallback,
        explorer: argv.html !== undefined,
        ...progress,
        onStoppable: stopOnSignals(argv.store),
      });
    } finally {
      progress.stop();
    }
    printNotes(result.notes);
    emitReport(result.report, result.json, argv);
    finishRun({ partial: result.partial, belowThreshold: [] });
  },
};
