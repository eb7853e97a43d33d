import type { RunStore } from '../store/run-store.js';
import { sha256 } from './hash.js';
import type { ChatMessage, ResponseSchema, Sampling, TokenUsage } from './providers/types.js';
import { redact, redactDeep } from './secrets.js';

/** What identifies a call. The API key is deliberately not part of it. */
export interface CallKeyParts {
  provider: string;
  baseUrl: string;
  model: string;
  promptHash: string;
  messages: ChatMessage[];
  sampling: Sampling;
  /** Schema-constrained output was asked for (part of the identity: it changes the answer). */
  responseSchema?: ResponseSchema;
}

export interface CachedCall {
  text: string;
  usage: TokenUsage;
  costUsd: number;
  latencyMs: number;
  attempts: number;
  resolvedModel?: string;
  /** Cut at the output-token limit. */
  truncated?: boolean;
  /** The API reported no usable token count: `usage` and `costUsd` are the request's worst case (usage.ts). */
  usageUnknown?: true;
}

export function callKey(p: CallKeyParts): string {
  const key: unknown[] = [p.provider, p.baseUrl, p.model, p.promptHash, p.messages, p.sampling.temperature, p.sampling.maxOutputTokens];
  if (p.responseSchema) key.push(p.responseSchema);
  return sha256(JSON.stringify(key));
}

/** The answer columns of an llm_calls row. */
interface AnswerRow {
  response: string;
  resolved_model: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  latency_ms: number;
  attempts: number;
  truncated: number;
  usage_unknown: number;
}

function callOf(r: AnswerRow): CachedCall {
  return {
    text: r.response,
    usage: { inputTokens: r.input_tokens, outputTokens: r.output_tokens },
    costUsd: r.cost_usd,
    latencyMs: r.latency_ms,
    attempts: r.attempts,
    resolvedModel: r.resolved_model ?? undefined,
    ...(r.truncated ? { truncated: true } : {}),
    ...(r.usage_unknown ? { usageUnknown: true as const } : {}),
  };
}

/**
 * The LLM response cache in the run store. Each response is committed as soon
 * as it arrives (autocommit), so a run killed with SIGKILL loses no paid call.
 */
export class LlmCache {
  private readonly getStmt;
  private readonly putStmt;
  private readonly recordedStmt;

  constructor(store: RunStore) {
    store.db.exec(`CREATE TABLE IF NOT EXISTS llm_calls (
      key TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      base_url TEXT NOT NULL,
      model TEXT NOT NULL,
      prompt_hash TEXT NOT NULL,
      messages TEXT NOT NULL,
      sampling TEXT NOT NULL,
      response TEXT NOT NULL,
      resolved_model TEXT,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      cost_usd REAL NOT NULL,
      latency_ms REAL NOT NULL,
      attempts INTEGER NOT NULL,
      truncated INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      usage_unknown INTEGER NOT NULL DEFAULT 0
    )`);
    // Stores from before it get the column: their answers all came with usable counts (or the run failed).
    const cols = store.db.prepare<[], { name: string }>('PRAGMA table_info(llm_calls)').all();
    if (!cols.some((c) => c.name === 'usage_unknown')) store.db.exec('ALTER TABLE llm_calls ADD COLUMN usage_unknown INTEGER NOT NULL DEFAULT 0');
    const answer = 'response, resolved_model, input_tokens, output_tokens, cost_usd, latency_ms, attempts, truncated, usage_unknown';
    this.recordedStmt = store.db.prepare(`SELECT model, messages, ${answer} FROM llm_calls WHERE key = ?`);
    this.getStmt = store.db.prepare(`SELECT ${answer} FROM llm_calls WHERE key = ?`);
    this.putStmt = store.db.prepare(`INSERT OR REPLACE INTO llm_calls
      (key, provider, base_url, model, prompt_hash, messages, sampling, response, resolved_model, input_tokens, output_tokens, cost_usd, latency_ms, attempts, truncated, created_at, usage_unknown)
      VALUES (@key, @provider, @baseUrl, @model, @promptHash, @messages, @sampling, @response, @resolvedModel, @inputTokens, @outputTokens, @costUsd, @latencyMs, @attempts, @truncated, @createdAt, @usageUnknown)`);
  }

  /** The stored request and answer of a call, for exporting replay files. */
  getRecorded(key: string): { model: string; messages: ChatMessage[]; call: CachedCall } | undefined {
    const r = this.recordedStmt.get(key) as (AnswerRow & { model: string; messages: string }) | undefined;
    return r ? { model: r.model, messages: JSON.parse(r.messages) as ChatMessage[], call: callOf(r) } : undefined;
  }

  get(key: string): CachedCall | undefined {
    const r = this.getStmt.get(key) as AnswerRow | undefined;
    return r ? callOf(r) : undefined;
  }

  put(key: string, parts: CallKeyParts, call: CachedCall): void {
    this.putStmt.run({
      key,
      provider: parts.provider,
      baseUrl: parts.baseUrl,
      model: parts.model,
      promptHash: parts.promptHash,
      // Store rows never hold a configured key (src/llm/secrets.ts), whatever carried it.
      messages: JSON.stringify(redactDeep(parts.messages)),
      sampling: JSON.stringify(parts.sampling),
      response: redact(call.text),
      resolvedModel: call.resolvedModel === undefined ? null : redact(call.resolvedModel),
      inputTokens: call.usage.inputTokens,
      outputTokens: call.usage.outputTokens,
      costUsd: call.costUsd,
      latencyMs: call.latencyMs,
      attempts: call.attempts,
      truncated: call.truncated ? 1 : 0,
      createdAt: new Date().toISOString(),
      usageUnknown: call.usageUnknown ? 1 : 0,
    });
  }
}
