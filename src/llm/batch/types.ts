import type { LlmRequest, LlmResponse, ProviderName } from '../providers/types.js';

/**
 * A provider's batch engine (OpenAI Batch API, Gemini batch mode) seen as a transport:
 * submit many calls at once, poll, collect the answers. Everything else (which calls,
 * the cache, budgets, waves) lives in waves.ts, the same for every provider.
 */
export interface BatchLine {
  /** The call's cache key: it comes back with the answer, so answers find their calls. */
  customId: string;
  request: Omit<LlmRequest, 'timeoutMs'>;
}

/** OpenAI's batch states; other providers map theirs onto them. */
export type BatchState =
  | 'validating'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'failed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

/** States after which a batch changes no more: its results (if any) can be collected. */
export const TERMINAL_STATES: ReadonlySet<BatchState> = new Set(['completed', 'failed', 'expired', 'cancelled']);

export interface BatchStatus {
  id: string;
  state: BatchState;
  total: number;
  completed: number;
  failed: number;
  /** Why the provider failed the whole batch (validation errors), when it says. */
  message?: string;
  /** Provider file ids of the answers and of the per-request errors (OpenAI). */
  outputFile?: string;
  errorFile?: string;
}

export interface BatchResults {
  answers: Map<string, LlmResponse>;
  /** customId → why that request has no answer (its error line; not missing lines). */
  errors: Map<string, string>;
}

export interface BatchLimits {
  /** Requests per batch (OpenAI: 50,000). */
  maxRequests: number;
  /** Bytes of the uploaded input file (OpenAI: 200 MB). */
  maxBytes: number;
}

export interface BatchTransport {
  readonly provider: ProviderName;
  /** The endpoint as it may be shown and stored (no key). */
  readonly baseUrl: string;
  readonly limits: BatchLimits;
  /** The size one line adds to a batch's input, for splitting by limits.maxBytes. */
  lineBytes(line: BatchLine): number;
  /** Uploads the lines and creates a batch; returns the provider's batch id. */
  submit(lines: BatchLine[]): Promise<string>;
  status(id: string): Promise<BatchStatus>;
  /** The answers and per-line errors of a batch in a terminal state (partial for expired/cancelled ones). */
  results(status: BatchStatus): Promise<BatchResults>;
}
