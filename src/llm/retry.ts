import { ProviderError } from './providers/types.js';

export interface RetryPolicy {
  /** Attempts including the first (default 5). */
  maxAttempts: number;
  /** First backoff in ms, doubled each retry (default 1000). */
  baseDelayMs: number;
  /** Longest backoff in ms (default 30 000). */
  maxDelayMs: number;
  /** Longest Retry-After we will honour; a server asking for more fails the call (default 120 000). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Retries 429, 5xx, timeouts, network failures and unparsable bodies with
 * exponential backoff (equal jitter: a wait between half and all of the capped
 * backoff), waiting what Retry-After asks when the server says. Client errors (4xx other than 408/429) fail at once.
 */
export async function withRetries<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY,
  sleep: Sleep = realSleep,
  random: () => number = Math.random,
): Promise<{ value: T; attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { value: await fn(), attempts: attempt };
    } catch (e) {
      const err = e instanceof ProviderError ? e : new ProviderError('network', e instanceof Error ? e.message : String(e));
      if (!err.retryable) throw err;
      if (attempt >= policy.maxAttempts) {
        throw new ProviderError(err.kind, `${err.message} (gave up after ${attempt} attempts)`, { status: err.status });
      }
      let wait: number;
      if (err.retryAfterMs !== undefined) {
        if (err.retryAfterMs > policy.maxRetryAfterMs) {
          throw new ProviderError(err.kind, `${err.message} (the server asked to wait ${Math.ceil(err.retryAfterMs / 1000)} s, more than the ${policy.maxRetryAfterMs / 1000} s we allow)`, { status: err.status });
        }
        wait = err.retryAfterMs;
      } else {
        const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
        wait = Math.round(cap / 2 + (random() * cap) / 2);
      }
      await sleep(wait);
    }
  }
}
