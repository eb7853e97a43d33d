import type { CallKeyParts } from '../cache.js';

/** A call the cache could not answer, put off to the next batch wave. */
export interface PendingCall {
  key: string;
  parts: CallKeyParts;
  /** At online prices: the prompt as the client estimates it plus the full output allowance. */
  worstCaseUsd: number;
}

/**
 * Thrown by the client in batch mode for a call the cache cannot answer yet: the
 * call is noted for the next wave, and the item that needed it waits for that wave.
 */
export class CallDeferred extends Error {
  constructor(readonly key: string) {
    super('deferred to a provider batch');
    this.name = 'CallDeferred';
  }
}

/**
 * What a batch-mode client shares with the wave driver. One pass of a run asks every
 * call it can; the misses gather here, go out as one wave of batches, and the next
 * pass finds their answers in the cache.
 */
export class BatchCollector {
  private readonly pending = new Map<string, PendingCall>();
  /** Calls that got no answer even after their one resubmission: the client fails them as a provider would. */
  readonly failed = new Map<string, string>();
  /** Calls to ask online after their batch failed them (--batch-fallback online). */
  readonly online = new Set<string>();
  /**
   * Calls this run's batches answered: requests of this run, not cache hits (counted once
   * in the client's stats; every item that uses one reports it as not cached).
   */
  readonly answeredHere = new Set<string>();

  add(call: PendingCall): void {
    if (!this.pending.has(call.key)) this.pending.set(call.key, call);
  }

  get size(): number {
    return this.pending.size;
  }

  /** The calls gathered since the last drain, in the order first asked. */
  drain(): PendingCall[] {
    const out = [...this.pending.values()];
    this.pending.clear();
    return out;
  }
}
