/**
 * One small interface in front of every LLM API. A provider makes exactly one
 * HTTP request per `complete` call: retries, caching, budgets and concurrency
 * live in ../llm-client.ts so they behave the same for every provider.
 */
import { redact } from '../secrets.js';

export type ProviderName = 'openai' | 'gemini' | 'replay';
export const PROVIDER_NAMES: readonly ProviderName[] = ['openai', 'gemini', 'replay'];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Sampling parameters; part of the cache key, so keep them explicit. */
export interface Sampling {
  temperature: number;
  maxOutputTokens: number;
}

/** A JSON schema the answer must follow, for providers that constrain output to one. */
export interface ResponseSchema {
  name: string;
  schema: Readonly<Record<string, unknown>>;
}

export interface LlmRequest {
  model: string;
  messages: ChatMessage[];
  sampling: Sampling;
  /**
   * One deadline for the whole call in milliseconds — connection, headers and body: the
   * provider gives up after it, however slowly the server trickles its answer.
   */
  timeoutMs: number;
  /** Asks for schema-constrained output where the provider supports it (see LlmProvider.structuredOutput). */
  responseSchema?: ResponseSchema;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/**
 * Token counts as the API reported them: undefined where it reported none usable (absent where
 * the API always sends it, or malformed: see usage.ts reportedCount). The client takes such a
 * count at its worst case.
 */
export interface ReportedUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
}

export interface LlmResponse {
  text: string;
  usage: ReportedUsage;
  /** The model version the API says answered (OpenAI `model`, Gemini `modelVersion`), when it says. */
  resolvedModel?: string;
  /** The answer stopped at the output-token limit (reasoning models spend it thinking). */
  truncated?: boolean;
}

/**
 * Models that reason before answering (OpenAI o-series and gpt-5, Gemini 2.5+):
 * their thinking counts against the output limit, and OpenAI's reject any
 * temperature but the default.
 */
export function isReasoningModel(model: string): boolean {
  const m = model.replace(/^models\//, '');
  return /^(o\d|gpt-5)/.test(m) || /^gemini-(2\.5|[3-9])/.test(m);
}

export interface LlmProvider {
  readonly name: ProviderName;
  /** The endpoint, for the cache key and messages (never carries a key). */
  readonly baseUrl: string;
  /** The provider sends `responseSchema` to the API (OpenAI response_format json_schema, Gemini responseSchema). */
  readonly structuredOutput: boolean;
  /**
   * Replay only: the model the recording was made with (its lines' one `model`), which names the
   * judge; a replay never takes the day it is replayed as a model snapshot.
   */
  readonly recordedModel?: string;
  complete(req: LlmRequest): Promise<LlmResponse>;
}

export type ProviderErrorKind = 'rate-limit' | 'server' | 'timeout' | 'network' | 'bad-response' | 'client';

/**
 * A failed call, classified so the retry policy need not know any SDK.
 * Messages are built from status codes and server text, never from request headers.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  /** From Retry-After (or Gemini's RetryInfo), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  constructor(kind: ProviderErrorKind, message: string, opts: { status?: number; retryAfterMs?: number } = {}) {
    // Servers echo what they were sent: no configured key survives into a message.
    super(redact(message));
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
  }

  get retryable(): boolean {
    return this.kind !== 'client';
  }
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

/** Classifies an HTTP status the same way for every provider. */
export function kindForStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate-limit';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  return 'client';
}

/** Keeps error text short and free of every configured key and anything that looks like a credential. */
export function cleanMessage(text: string, max = 300): string {
  const scrubbed = redact(text).replace(/(sk-[A-Za-z0-9_-]{6,}|AIza[0-9A-Za-z_-]{10,}|Bearer\s+\S+)/g, '[redacted]');
  return scrubbed.length > max ? scrubbed.slice(0, max) + '…' : scrubbed;
}

/**
 * An endpoint as it may be shown and stored: user:password@ and key-like
 * query parameters (key=, api_key=, token=...) are removed.
 */
export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
  u.username = '';
  u.password = '';
  for (const k of [...u.searchParams.keys()]) if (/key|token|secret|signature|sig$/i.test(k)) u.searchParams.delete(k);
  return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
}
