import type { Argv } from 'yargs';
import { UserError } from '../errors.js';
import type { BatchModeOptions } from '../llm/batch/setup.js';
import type { BatchFallback, BatchWait, WaveProgress, sumWaves } from '../llm/batch/waves.js';
import { atLeast } from '../api/option-checks.js';

/**
 * The options every command that calls an LLM shares (judge, validate's live judge, audit's
 * LLM agents): endpoint, replay file, parallelism and budget. `scope` prefixes their help.
 */
export function addLlmCallOptions<T>(y: Argv<T>, scope?: string): Argv<T> {
  const p = scope ? `${scope}: ` : '';
  return y
    .option('base-url', { type: 'string', describe: `${p}API endpoint (OpenAI-compatible servers: vLLM, Ollama, llama.cpp); else OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL` })
    .option('replay', { type: 'string', describe: `${p}replay provider: JSONL of recorded responses` })
    .option('concurrency', { alias: 'j', type: 'number', default: 4, describe: `${p}LLM calls in flight at once` })
    .option('max-cost-usd', { type: 'number', describe: `${p}stop before spending more than this (USD); what is done so far is kept` })
    .option('max-calls', { type: 'number', describe: `${p}stop before making more LLM calls than this; what is done so far is kept` }) as unknown as Argv<T>;
}

/** Refuses a parallelism below 1 and a negative budget. */
export function checkLlmCallOptions(argv: { concurrency: number; maxCalls?: number; maxCostUsd?: number }): void {
  atLeast('concurrency', argv.concurrency, 1);
  atLeast('max-calls', argv.maxCalls, 0);
  atLeast('max-cost-usd', argv.maxCostUsd, 0, false);
}

/** The batch-mode options (--batch and its companions) of judge and audit's LLM agents. */
export function addBatchOptions<T>(y: Argv<T>, scope?: string): Argv<T> {
  const p = scope ? `${scope}: ` : '';
  return y
    .option('batch', { type: 'boolean', default: false, describe: `${p}send the calls through the provider's batch engine (OpenAI Batch API: half price, results within 24 h), in waves; resumable` })
    .option('batch-wait', { choices: ['all', 'none'], default: 'all', describe: `${p}--batch: wait for every wave (all), or submit the next wave and exit 3 (none; run the same command again to collect)` })
    .option('batch-fallback', { choices: ['batch', 'online'], default: 'batch', describe: `${p}--batch: where a request goes after its batch expired, failed or lost it (once)` })
    .option('batch-poll', { type: 'number', default: 30, describe: `${p}--batch: first wait between polls in seconds (doubles while nothing changes, up to 10 min)` }) as unknown as Argv<T>;
}

export interface BatchArgs {
  batch: boolean;
  batchWait: string;
  batchFallback: string;
  batchPoll: number;
  provider?: string;
  record?: string;
}

/** Checks the batch options; returns the batch mode's options when --batch is on. */
export function batchModeOptions(argv: BatchArgs, onProgress: (p: WaveProgress) => void): BatchModeOptions | undefined {
  if (!(argv.batchPoll > 0)) throw new UserError('--batch-poll must be a positive number of seconds');
  if (!argv.batch) {
    if (argv.batchWait !== 'all' || argv.batchFallback !== 'batch') throw new UserError('--batch-wait and --batch-fallback apply only with --batch');
    return undefined;
  }
  if (argv.provider === 'replay') throw new UserError('--batch needs a live provider: --provider replay answers from a file and has no batch engine.');
  if (argv.record) throw new UserError('--record replays every call online from the cache; run it after the batch run, without --batch');
  const pollMs = Math.round(argv.batchPoll * 1000);
  return {
    wait: argv.batchWait as BatchWait,
    fallback: argv.batchFallback as BatchFallback,
    pollMs,
    pollMaxMs: Math.max(pollMs, 600_000),
    onProgress,
  };
}

/** The one stderr line a batch run ends with: what its waves did. */
export function batchSummaryLine(w: ReturnType<typeof sumWaves>): string {
  return `sqlboard: batch: ${w.waves} wave(s), ${w.batchIds.length} batch(es) submitted (${w.submitted} requests, ${w.resubmitted} resubmitted), ${w.adopted} collected from earlier runs' batches, ${w.answered} answered, ${w.toOnline} sent online, ${w.failed} failed.\n`;
}
