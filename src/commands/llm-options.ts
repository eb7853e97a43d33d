import type { Argv } from 'yargs';

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
