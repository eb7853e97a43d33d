import { UserError } from '../errors.js';
import type { BatchModeOptions } from '../llm/batch/setup.js';
import type { BatchFallback, BatchWait, WaveProgress, sumWaves } from '../llm/batch/waves.js';
import { atLeast } from './option-checks.js';

/** The options every command that calls an LLM shares (judge, validate's live judge, audit's LLM agents). */
export interface LlmCallOptions {
  /** API endpoint (OpenAI-compatible servers); else OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL. */
  baseUrl?: string;
  /** replay provider: JSONL of recorded responses. */
  replay?: string;
  /** LLM calls in flight at once (default 4). */
  concurrency?: number;
  /** Stop before spending more than this (USD); what is done so far is kept. */
  maxCostUsd?: number;
  /** Stop before making more LLM calls than this; what is done so far is kept. */
  maxCalls?: number;
}

/** The batch-mode options (provider batch engines) of judge, validate's live judge and audit's LLM agents. */
export interface BatchOptions {
  /** Send the calls through the provider's batch engine, in waves (resumable). */
  batch?: boolean;
  /** Wait for every wave (all, default), or submit the next wave and return (none). */
  batchWait?: BatchWait;
  /** Where a request goes after its batch expired, failed or lost it (default batch). */
  batchFallback?: BatchFallback;
  /** First wait between polls in seconds (default 30). */
  batchPoll?: number;
}

export const DEFAULT_CONCURRENCY = 4;

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
