import type { BatchModeOptions } from '../llm/batch/setup.js';
import type { WaveProgress, sumWaves } from '../llm/batch/waves.js';
import { positiveSeconds, refuse } from './option-checks.js';
import type { OptionTable, OptionValues } from './option-table.js';

export const DEFAULT_CONCURRENCY = 4;

/** The options every command that calls an LLM shares (judge, validate's live judge, audit's LLM agents): endpoint, replay file, parallelism and budget. */
export const LLM_CALL_OPTIONS = {
  'base-url': { type: 'string', describe: 'API endpoint (OpenAI-compatible servers: vLLM, Ollama, llama.cpp); else OPENAI_BASE_URL / GOOGLE_GEMINI_BASE_URL' },
  replay: { type: 'string', describe: 'replay provider: JSONL of recorded responses' },
  concurrency: { alias: 'j', type: 'number', default: DEFAULT_CONCURRENCY, describe: 'LLM calls in flight at once', min: 1 },
  'max-cost-usd': { type: 'number', describe: 'stop before spending more than this (USD); what is done so far is kept', min: 0, integer: false },
  'max-calls': { type: 'number', describe: 'stop before making more LLM calls than this; what is done so far is kept', min: 0 },
} as const satisfies OptionTable;

/** The batch-mode options (provider batch engines) of judge, validate's live judge and audit's LLM agents. */
export const BATCH_OPTIONS = {
  batch: {
    type: 'boolean',
    default: false,
    describe: "send the calls through the provider's batch engine (OpenAI Batch API: half price, results within 24 h), in waves; resumable",
    checks: [
      refuse((batch, o) => batch === true && o.provider === 'replay', '--batch needs a live provider: --provider replay answers from a file and has no batch engine.'),
      refuse((batch, o) => batch === true && Boolean(o.record), '--record replays every call online from the cache; run it after the batch run, without --batch'),
    ],
  },
  'batch-wait': {
    choices: ['all', 'none'],
    default: 'all',
    describe: '--batch: wait for every wave (all), or submit the next wave and exit 3 (none; run the same command again to collect)',
    checks: [refuse((wait, o) => o.batch !== true && (wait !== 'all' || o.batchFallback !== 'batch'), '--batch-wait and --batch-fallback apply only with --batch')],
  },
  'batch-fallback': { choices: ['batch', 'online'], default: 'batch', describe: '--batch: where a request goes after its batch expired, failed or lost it (once)' },
  'batch-poll': { type: 'number', default: 30, describe: '--batch: first wait between polls in seconds (doubles while nothing changes, up to 10 min)', checks: [positiveSeconds] },
} as const satisfies OptionTable;

/** The order in which the LLM and batch options' errors have always been reported. */
export const LLM_CHECK_ORDER = ['concurrency', 'max-calls', 'max-cost-usd'] as const;
export const BATCH_CHECK_ORDER = ['batch-poll', 'batch-wait', 'batch'] as const;

export type LlmCallOptions = OptionValues<typeof LLM_CALL_OPTIONS>;
export type BatchOptions = OptionValues<typeof BATCH_OPTIONS>;


/** The batch mode's options when `batch` is on (the table's rules, made by resolveOptions, checked the values). */
export function batchModeOptions(o: BatchOptions, onProgress: ((p: WaveProgress) => void) | undefined): BatchModeOptions | undefined {
  if (!o.batch) return undefined;
  const pollMs = Math.round((o.batchPoll ?? 30) * 1000);
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
