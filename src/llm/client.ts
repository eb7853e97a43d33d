import { Budget } from './budget.js';
import { isDatedModel } from './model-name.js';
import { LlmCache, callKey } from './cache.js';
import type { CachedCall, CallKeyParts } from './cache.js';
import { createLimiter } from './limit.js';
import { costUsd } from './pricing.js';
import type { Price } from './pricing.js';
import { DEFAULT_RETRY, realSleep, withRetries } from './retry.js';
import type { RetryPolicy, Sleep } from './retry.js';
import { CallDeferred } from './batch/collector.js';
import type { BatchCollector } from './batch/collector.js';
import { ProviderError, isReasoningModel } from './providers/types.js';
import type { ChatMessage, LlmProvider, ResponseSchema, Sampling } from './providers/types.js';
import { redact } from './secrets.js';
import { callSize, usageOf, worstCaseUsage } from './usage.js';

export interface LlmClientOptions {
  provider: LlmProvider;
  model: string;
  /** Each part left out takes its default: temperature 0, defaultMaxOutputTokens(model). */
  sampling?: Partial<Sampling>;
  /** Per-call (per-attempt) timeout in ms (default 120 000). */
  timeoutMs?: number;
  retry?: RetryPolicy;
  cache?: LlmCache;
  budget?: Budget;
  /** undefined: the price is unknown and costs are reported as 0. */
  price?: Price;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  sleep?: Sleep;
  /**
   * Batch mode: a call the cache cannot answer is not requested but noted here and
   * raised as CallDeferred; a wave of provider batches answers it into the cache.
   */
  batch?: BatchCollector;
}

export interface CallResult extends CachedCall {
  /** No request was made for this call: answered from the run store, or by an identical call in flight. */
  cached: boolean;
  /** The answer was constrained to the request's JSON schema by the API. */
  structured: boolean;
}

export interface CallOptions {
  /** Asks for schema-constrained output (used where the provider supports it). */
  responseSchema?: ResponseSchema;
}

/** What this process actually did (cache hits cost nothing). */
export interface ClientStats {
  requests: number;
  /** Calls answered without a request of their own (run store, or an identical call in flight). */
  cacheHits: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** The worst cases reserved for the requests made (with a cost cap): never above the cap. */
  reservedUsd: number;
  /** What the provider billed beyond those worst cases (it reported more tokens than the maximum). */
  billedBeyondWorstUsd: number;
  /** Answers whose token counts the API did not report usably: counted at their worst case (usage.ts). */
  unknownUsage: number;
  /** What those answers were priced at. */
  unknownUsageUsd: number;
}

const DEFAULT_SAMPLING: Sampling = { temperature: 0, maxOutputTokens: 2048 };

/** Reasoning models spend output tokens thinking before the JSON: give them room. */
function defaultMaxOutputTokens(model: string): number {
  return isReasoningModel(model) ? 16_384 : DEFAULT_SAMPLING.maxOutputTokens;
}

/**
 * Every judge call goes through here: cache lookup, budget admission,
 * concurrency limit, retries, cost. Deterministic sampling (temperature 0) by
 * default so a cached answer is the answer a re-run would want.
 */
export class LlmClient {
  readonly provider: LlmProvider;
  readonly model: string;
  readonly sampling: Sampling;
  readonly stats: ClientStats = {
    requests: 0,
    cacheHits: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    reservedUsd: 0,
    billedBeyondWorstUsd: 0,
    unknownUsage: 0,
    unknownUsageUsd: 0,
  };
  /** The first dated model version an API reported, for naming the judge. */
  resolvedModel: string | undefined;
  /** Cache keys of every call this client answered (for `--record`). */
  readonly usedKeys = new Set<string>();
  private readonly limit;
  private readonly inFlight = new Map<string, Promise<CachedCall>>();
  /** Batch-answered calls already counted in stats (a pass may use them again). */
  private readonly counted = new Set<string>();

  constructor(private readonly opts: LlmClientOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.sampling = {
      temperature: opts.sampling?.temperature ?? DEFAULT_SAMPLING.temperature,
      maxOutputTokens: opts.sampling?.maxOutputTokens ?? defaultMaxOutputTokens(opts.model),
    };
    this.limit = createLimiter(opts.concurrency ?? 4);
  }

  async call(promptHash: string, messages: ChatMessage[], opts: CallOptions = {}): Promise<CallResult> {
    const schema = this.provider.structuredOutput ? opts.responseSchema : undefined;
    const structured = schema !== undefined;
    const parts: CallKeyParts = {
      provider: this.provider.name,
      baseUrl: this.provider.baseUrl,
      model: this.model,
      promptHash,
      messages,
      sampling: this.sampling,
      ...(schema ? { responseSchema: schema } : {}),
    };
    const key = callKey(parts);
    this.usedKeys.add(key);
    const hit = this.opts.cache?.get(key);
    const batch = this.opts.batch;
    if (hit && batch?.answeredHere.has(key)) {
      // Answered by this run's batches: a request of this run (counted once), not a cache hit.
      if (!this.counted.has(key)) {
        this.counted.add(key);
        this.count(hit);
      }
      return { ...hit, cached: false, structured };
    }
    if (hit) {
      this.stats.cacheHits += 1;
      this.noteModel(hit.resolvedModel);
      return { ...hit, cached: true, structured };
    }
    if (batch && !batch.online.has(key)) {
      const failed = batch.failed.get(key);
      if (failed !== undefined) throw new ProviderError('server', failed);
      // The same tokenizer-counted worst case an online call reserves, so a wave's budget check holds too.
      batch.add({ key, parts, worstCaseUsd: await this.countedWorstCaseUsd(parts) });
      throw new CallDeferred(key);
    }
    // Systems often predict the same SQL: an identical call already in flight is joined, not repeated.
    const pending = this.inFlight.get(key);
    if (pending) {
      const joined = await pending;
      this.stats.cacheHits += 1;
      return { ...joined, cached: true, structured };
    }
    const request = this.request(key, parts);
    this.inFlight.set(key, request);
    try {
      return { ...(await request), cached: false, structured };
    } finally {
      this.inFlight.delete(key);
    }
  }

  /**
   * This call's worst case: its input tokens counted with the model's tokenizer (an upper bound
   * for models we cannot count exactly, see token-count.ts) plus the full output allowance that
   * every request sets. Counted only when a cost cap needs it.
   */
  private async countedWorstCaseUsd(parts: CallKeyParts): Promise<number> {
    if (this.opts.budget?.limits.maxCostUsd === undefined || !this.opts.price) return 0;
    return costUsd(await worstCaseUsage(callSize(parts)), this.opts.price);
  }

  private async request(key: string, parts: CallKeyParts): Promise<CachedCall> {
    const { messages } = parts;
    const worst = await this.countedWorstCaseUsd(parts);
    // Admitted only if spent + reserved + this worst case fits the cap (budget.ts).
    const ticket = this.opts.budget?.reserve(worst);
    try {
      const result = await this.limit(async () => {
        const t0 = performance.now();
        const { value, attempts } = await withRetries(
          () =>
            this.provider.complete({
              model: this.model,
              messages,
              sampling: this.sampling,
              timeoutMs: this.opts.timeoutMs ?? 120_000,
              ...(parts.responseSchema ? { responseSchema: parts.responseSchema } : {}),
            }),
          this.opts.retry ?? DEFAULT_RETRY,
          this.opts.sleep ?? realSleep,
        );
        // Token counts the API did not report usably are taken at the request's worst case.
        const used = await usageOf(value.usage, callSize(parts), this.opts.price);
        // A server may echo the key it was sent: nothing a provider returns keeps it.
        const call: CachedCall = {
          text: redact(value.text),
          ...used,
          latencyMs: Math.round(performance.now() - t0),
          attempts,
          resolvedModel: value.resolvedModel === undefined ? undefined : redact(value.resolvedModel),
          ...(value.truncated ? { truncated: true } : {}),
        };
        return call;
      });
      // Reconciled with what the provider reports: a bill above the worst case stops the next call.
      ticket?.commit(result.costUsd);
      if (ticket) {
        this.stats.reservedUsd += worst;
        // Without a cost cap no worst case was counted (0): nothing can be said to exceed it.
        if (this.opts.budget?.limits.maxCostUsd !== undefined) this.stats.billedBeyondWorstUsd += Math.max(0, result.costUsd - worst);
      }
      this.opts.cache?.put(key, parts, result);
      this.count(result);
      return result;
    } catch (e) {
      ticket?.release();
      throw e;
    }
  }

  /** A request this run made (online, or in one of its batches). */
  private count(call: CachedCall): void {
    this.stats.requests += 1;
    this.stats.inputTokens += call.usage.inputTokens;
    this.stats.outputTokens += call.usage.outputTokens;
    this.stats.costUsd += call.costUsd;
    if (call.usageUnknown) {
      this.stats.unknownUsage += 1;
      this.stats.unknownUsageUsd += call.costUsd;
    }
    this.noteModel(call.resolvedModel);
  }

  private noteModel(m: string | undefined): void {
    if (this.resolvedModel === undefined && m && isDatedModel(m)) this.resolvedModel = m;
  }
}
