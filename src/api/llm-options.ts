import { UserError } from '../errors.js';
import type { BatchModeOptions } from '../llm/batch/setup.js';
import type { WaveProgress, sumWaves } from '../llm/batch/waves.js';
import { atLeast } from './option-checks.js';
import type { OptionTable, OptionValues } from './option-table.js';

export const DEFAULT_CONCURRENCY = 4;

/** The options every command that calls an LLM shares (judge, validate's live judge, audit's LLM agents): endpoint, replay file, parallelism and budget. */
export const LLM_CALL_OPTIONS = {
  'base-url': { type: 'string', describe: 'API endpoint (OpenAI-compatible servers: vLLM, Ollama, llama.cpp); else OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL' },
  replay: { type: 'string', describe: 'replay provider: JSONL of recorded responses' },
  concurrency: { alias: 'j', type: 'number', default: DEFAULT_CONCURRENCY, describe: 'LLM calls in flight at once' },
  'max-cost-usd': { type: 'number', describe: 'stop before spending more than this (USD); what is done so far is kept' },
  'max-calls': { type: 'number', describe: 'stop before making more LLM calls than this; what is done so far is kept' },
} as const satisfies OptionTable;

/** The batch-mode options (provider batch engines) of judge, validate's live judge and audit's LLM agents. */
export const BATCH_OPTIONS = {
  batch: { type: 'boolean', default: false, describe: "send the calls through the provider's batch engine (OpenAI Batch API: half price, results within 24 h), in waves; resumable" },
  'batch-wait': { choices: ['all', 'none'], default: 'all', describe: '--batch: wait for every wave (all), or submit the next wave and exit 3 (none; run the same command again to collect)' },
  'batch-fallback': { choices: ['batch', 'online'], default: 'batch', describe: '--batch: where a request goes after its batch expired, failed or lost it (once)' },
  'batch-poll': { type: 'number', default: 30, describe: '--batch: first wait between polls in seconds (doubles while nothing changes, up to 10 min)' },
} as const satisfies OptionTable;

export type LlmCallOptions = OptionValues<typeof LLM_CALL_OPTIONS>;
export type BatchOptions = OptionValues<typeof BATCH_OPTIONS>;


/** Refuses a parallelism below 1 and a negative budget; returns the concurrency. */
export function checkLlmCallOptions(o: LlmCallOptions): number {
  const concurrency = o.concurrency ?? DEFAULT_CONCURRENCY;
  atLeast('concurrency', concurrency, 1);
  atLeast('max-calls', o.maxCalls, 0);
  atLeast('max-cost-usd', o.maxCostUsd, 0, false);
  return concurrency;
}

/** Checks the batch options; returns the batch mode's options when `batch` is on. */
export function batchModeOptions(
  o: BatchOptions & { provider?: string; record?: string },
  onProgress: ((p: WaveProgress) => void) | undefined,
): BatchModeOptions | undefined {
  const poll = o.batchPoll ?? 30;
  if (!(poll > 0)) throw new UserError('--batch-poll must be a positive number of seconds');
  if (!o.batch) {
    if ((o.batchWait ?? 'all') !== 'all' || (o.batchFallback ?? 'batch') !== 'batch') throw new UserError('--batch-wait and --batch-fallback apply only with --batch');
    return undefined;
  }
  if (o.provider === 'replay') throw new UserError('--batch needs a live provider: --provider replay answers from a file and has no batch engine.');
  if (o.record) throw new UserError('--record replays every call online from the cache; run it after the batch run, without --batch');
  const pollMs = Math.round(poll * 1000);
  return {
    wait: o.batchWait ?? 'all',
    fallback: o.batchFallback ?? 'batch',
    pollMs,
    pollMaxMs: Math.max(pollMs, 600_000),
    ...(onProgress ? { onProgress } : {}),
  };
}

/** The note a batch run ends with: what its waves did. */
export function batchSummaryNote(w: ReturnType<typeof sumWaves>): string {
  return `batch: ${w.waves} wave(s), ${w.batchIds.length} batch(es) submitted (${w.submitted} requests, ${w.resubmitted} resubmitted), ${w.adopted} collected from earlier runs' batches, ${w.answered} answered, ${w.toOnline} sent online, ${w.failed} failed.`;
}
