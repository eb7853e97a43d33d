import { DEFAULT_MAX_REASKS } from '../judge/reasks.js';
import { DEFAULT_PREVIEW_ROWS } from '../judge/preview.js';
import { PROVIDER_NAMES } from '../llm/providers/types.js';
import { DEFAULT_RETRY } from '../llm/retry.js';
import { DEFAULT_STORE } from '../store/default-store.js';
import { BATCH_OPTIONS, LLM_CALL_OPTIONS } from './llm-options.js';
import type { OptionTable } from './option-table.js';
import { REPAIR_OPTIONS } from './shared-options.js';
import { positiveSeconds } from './option-checks.js';

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
  workers: { type: 'number', describe: 'Most parallel SQL execution processes (default: one per core; more than one start only when the queued work is worth them)' },
  store: { type: 'string', default: DEFAULT_STORE, describe: 'Run store: executions, LLM responses, verdicts (makes runs resumable)' },
  items: { type: 'string', describe: 'Write one JSON line per (system, task) to this file' },
  record: { type: 'string', describe: 'Write the answers this run used as a replay file (--provider replay --replay FILE)' },
  ...LLM_CALL_OPTIONS,
  ...BATCH_OPTIONS,
} as const satisfies OptionTable;
