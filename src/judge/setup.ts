import { birdEqual } from '../execution/compare-bird.js';
import type { RunStore } from '../store/run-store.js';
import { createBatchMode } from '../llm/batch/setup.js';
import type { BatchMode, BatchModeOptions } from '../llm/batch/setup.js';
import type { BatchTransport } from '../llm/batch/types.js';
import { Budget } from '../llm/budget.js';
import type { CascadeDeps } from './cascade.js';
import { judgeName } from '../llm/model-name.js';
import { LlmCache } from '../llm/cache.js';
import { LlmClient } from '../llm/client.js';
import { runPrice } from '../llm/pricing.js';
import type { Price } from '../llm/pricing.js';
import { loadPrompt } from './prompts.js';
import { createProvider } from '../llm/providers/index.js';
import type { ProviderConfig } from '../llm/providers/index.js';
import type { LlmProvider, Sampling } from '../llm/providers/types.js';
import type { RetryPolicy, Sleep } from '../llm/retry.js';
import { judgeConfigKey } from './run.js';
import { createSchemaSource } from './schema-text.js';
import { VerdictStore } from './verdict-store.js';

export interface LiveJudgeOptions {
  /** How to reach the model (or `provider` to pass a ready one, e.g. in tests). */
  providerConfig?: ProviderConfig;
  provider?: LlmProvider;
  model: string;
  /** `<dbRoot>/<db>/<db>.sqlite`, for the schema text. */
  dbRoot: string;
  /** BIRD database_description root (`<dir>/<db>/<table>.csv`). */
  descriptionsRoot?: string;
  /** Response cache and verdicts; without it every run calls the API again. */
  store?: RunStore;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  /** One deadline per call attempt in ms, over headers and body (default 120 000). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  maxCostUsd?: number;
  maxCalls?: number;
  /** Price for this model (else looked up in priceTable, else the defaults). */
  price?: Price;
  priceTable?: Readonly<Record<string, Price>>;
  /** Names the judge `<model>-<snapshot>` when the model id has no date. */
  snapshot?: string;
  promptsDir?: string;
  previewRows?: number;
  maxReasks?: number;
  /** Parts left out take the client's defaults (see LlmClient). */
  sampling?: Partial<Sampling>;
  env?: NodeJS.ProcessEnv;
  sleep?: Sleep;
  /** Batch mode (--batch): calls go to the provider's batch engine in waves. */
  batch?: BatchModeOptions;
  /** A ready batch transport (tests); else built from providerConfig. */
  batchTransport?: BatchTransport;
}

export interface LiveJudge {
  deps: CascadeDeps;
  client: LlmClient;
  verdicts: VerdictStore | undefined;
  /** The response cache (with a store), e.g. to export a replay file. */
  cache: LlmCache | undefined;
  /** Hash of the judge configuration (verdict-store key part). */
  judgeKey: string;
  /**
   * `<model>-<snapshot date>`; call once after the run (it then uses the version the API
   * reported, and with a store fixes the name for this configuration).
   */
  name(): string;
  price: Price | undefined;
  /** Batch mode's collector and wave driver (pass to runJudge), when asked for. */
  batch?: BatchMode;
}

/**
 * Everything a live ROSE-style judge needs, wired once: provider, cache,
 * budget, prompts, schema text and the `bird` comparator. `sqlboard judge`
 * and `validate` both build their judge here and run it with runJudge().
 */
export function createLiveJudge(o: LiveJudgeOptions): LiveJudge {
  const provider = o.provider ?? (o.providerConfig ? createProvider(o.providerConfig, o.env) : undefined);
  if (!provider) throw new Error('createLiveJudge: give provider or providerConfig');
  const price = runPrice(o.model, {
    given: o.price,
    table: o.priceTable,
    maxCostUsd: o.maxCostUsd,
    howToFix: '--price IN,OUT (USD per million tokens) or --price-file FILE.json',
  });
  const cache = o.store ? new LlmCache(o.store) : undefined;
  const budget = new Budget({ maxCostUsd: o.maxCostUsd, maxCalls: o.maxCalls });
  const batch = o.batch
    ? createBatchMode({ transport: o.batchTransport, providerConfig: o.providerConfig ?? { provider: provider.name }, env: o.env, store: o.store, cache, model: o.model, budget, price, options: o.batch })
    : undefined;
  const client = new LlmClient({
    provider,
    model: o.model,
    sampling: o.sampling,
    timeoutMs: o.timeoutMs,
    retry: o.retry,
    cache,
    budget,
    price,
    concurrency: o.concurrency,
    sleep: o.sleep,
    ...(batch ? { batch: batch.collector } : {}),
  });
  const verdicts = o.store ? new VerdictStore(o.store) : undefined;
  const deps: CascadeDeps = {
    client,
    prompts: {
      prover: loadPrompt('prover', o.promptsDir),
      refuter: loadPrompt('refuter', o.promptsDir),
      refuterMatch: loadPrompt('refuter-match', o.promptsDir),
    },
    schemaFor: createSchemaSource(o.dbRoot, o.descriptionsRoot),
    equal: birdEqual,
    previewRows: o.previewRows,
    maxReasks: o.maxReasks,
  };
  const judgeKey = judgeConfigKey(deps, { comparator: 'bird' });
  return {
    deps,
    client,
    verdicts,
    cache,
    judgeKey,
    name: () => {
      // A replay serves a recording: the model it was made with names it, never today's date.
      const replay = provider.name === 'replay';
      const proposed = judgeName(o.model, {
        snapshot: o.snapshot,
        resolvedModel: client.resolvedModel ?? provider.recordedModel,
        ...(replay ? { undated: 'replay' } : {}),
      });
      // An explicit --snapshot always wins; otherwise the name this configuration first got.
      return verdicts && !o.snapshot ? verdicts.nameFor(judgeKey, proposed) : proposed;
    },
    price,
    ...(batch ? { batch } : {}),
  };
}
