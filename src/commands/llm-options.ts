import type { Argv } from 'yargs';
import { atLeast } from './option-checks.js';

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
