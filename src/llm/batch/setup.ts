import { UserError } from '../../errors.js';
import type { Budget } from '../budget.js';
import type { LlmCache } from '../cache.js';
import type { Price } from '../pricing.js';
import type { ProviderConfig } from '../providers/index.js';
import type { Sleep } from '../retry.js';
import type { RunStore } from '../../store/run-store.js';
import { BatchStore } from './batch-store.js';
import { BatchCollector } from './collector.js';
import { createGeminiBatchTransport } from './gemini-batch.js';
import { createOpenAiBatchTransport } from './openai-batch.js';
import type { BatchLimits, BatchTransport } from './types.js';
import { WaveDriver } from './waves.js';
import type { BatchFallback, BatchWait, WaveProgress } from './waves.js';

export interface BatchModeOptions {
  /** --batch-wait (default all). */
  wait?: BatchWait;
  /** --batch-fallback (default batch). */
  fallback?: BatchFallback;
  /** First wait between polls in ms (then doubling to pollMaxMs while nothing changes). */
  pollMs?: number;
  pollMaxMs?: number;
  /** Split batches below the provider's limits (tests). */
  limits?: BatchLimits;
  sleep?: Sleep;
  onProgress?: (p: WaveProgress) => void;
}

/** The provider's batch engine, with the key read from the environment as the online provider reads it. */
export function createBatchTransport(cfg: ProviderConfig, env: NodeJS.ProcessEnv, model: string, limits?: BatchLimits): BatchTransport {
  switch (cfg.provider) {
    case 'openai': {
      const apiKey = env.OPENAI_API_KEY;
      if (!apiKey) throw new UserError('--provider openai needs the OPENAI_API_KEY environment variable (any value for a local server that ignores it).');
      return createOpenAiBatchTransport({ apiKey, baseUrl: cfg.baseUrl ?? (env.OPENAI_BASE_URL || undefined), ...(limits ? { limits } : {}) });
    }
    case 'gemini': {
      const apiKey = env.GEMINI_API_KEY || env.GOOGLE_API_KEY;
      if (!apiKey) throw new UserError('--provider gemini needs the GEMINI_API_KEY (or GOOGLE_API_KEY) environment variable.');
      return createGeminiBatchTransport({ apiKey, baseUrl: cfg.baseUrl ?? (env.GOOGLE_GEMINI_BASE_URL || undefined), apiVersion: cfg.apiVersion, model, ...(limits ? { limits } : {}) });
    }
    case 'replay':
      throw new UserError('--batch needs a live provider: --provider replay answers from a file and has no batch engine.');
  }
}

export interface BatchMode {
  collector: BatchCollector;
  driver: WaveDriver;
}

/**
 * Everything batch mode needs, wired to the run store: the collector the client defers
 * calls to, and the wave driver that submits them, polls and fills the LLM cache.
 */
export function createBatchMode(o: {
  /** A ready transport (tests); else the provider's, built from providerConfig and env. */
  transport?: BatchTransport;
  providerConfig: ProviderConfig;
  env?: NodeJS.ProcessEnv;
  store: RunStore | undefined;
  cache: LlmCache | undefined;
  model: string;
  budget?: Budget;
  price?: Price;
  options: BatchModeOptions;
}): BatchMode {
  if (!o.store || !o.cache) throw new UserError('--batch needs a run store (--store FILE): it records the batch ids that let a later run collect them.');
  const transport = o.transport ?? createBatchTransport(o.providerConfig, o.env ?? process.env, o.model, o.options.limits);
  const collector = new BatchCollector();
  const driver = new WaveDriver({
    transport,
    store: new BatchStore(o.store),
    cache: o.cache,
    collector,
    model: o.model,
    budget: o.budget,
    price: o.price,
    fallback: o.options.fallback,
    wait: o.options.wait,
    pollMs: { first: o.options.pollMs ?? 2_000, max: o.options.pollMaxMs ?? 60_000 },
    sleep: o.options.sleep,
    onProgress: o.options.onProgress,
  });
  return { collector, driver };
}
