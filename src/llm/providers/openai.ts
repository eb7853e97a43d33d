import type OpenAI from 'openai';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge } from '../bounded-fetch.js';
import type { FetchOutcome } from '../bounded-fetch.js';
import { ProviderError, cleanMessage, kindForStatus, parseRetryAfter } from './types.js';
import { redactUrl } from './types.js';
import { OPENAI_DEFAULT_BASE_URL, chatAnswer, chatBody } from './openai-body.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './types.js';

type Sdk = typeof import('openai');
let sdk: Promise<Sdk> | undefined;
/** The SDK takes tens of milliseconds to import: only a run that sends a request pays for it. */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('openai'));

/**
 * OpenAI chat completions through the official SDK, so any OpenAI-compatible
 * server (vLLM, Ollama, llama.cpp) works with a base URL. The SDK's own retries
 * are off: ../llm-client.ts retries, with one policy for all providers. Each call
 * reads its whole body inside a bounded fetch (one deadline over headers and body, a byte cap).
 */
export function createOpenAiProvider(opts: { apiKey: string; baseUrl?: string; maxResponseBytes?: number; structuredOutput?: boolean }): LlmProvider {
  const baseUrl = opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const structuredOutput = opts.structuredOutput ?? true;
  let client: Promise<OpenAI> | undefined;
  const openClient = (): Promise<OpenAI> =>
    (client ??= loadSdk().then((m) => new m.default({ apiKey: opts.apiKey, baseURL: baseUrl, maxRetries: 0 })));
  return {
    name: 'openai',
    baseUrl: redactUrl(baseUrl),
    structuredOutput,
    async complete(req: LlmRequest): Promise<LlmResponse> {
      let res: OpenAI.Chat.Completions.ChatCompletion;
      const outcome: FetchOutcome = {};
      const api = (await openClient()).withOptions({ fetch: boundedFetch({ deadlineMs: req.timeoutMs, maxBytes }, outcome) });
      try {
        // The bounded fetch holds the deadline; the SDK's own timer is only a backstop.
        res = await api.chat.completions.create(chatBody(structuredOutput ? req : { ...req, responseSchema: undefined }, baseUrl), { timeout: req.timeoutMs + 1000, maxRetries: 0 });
      } catch (e) {
        throw classifyOpenAiError(e, req.timeoutMs, outcome, await loadSdk());
      }
      return chatAnswer(res);
    },
  };
}

function classifyOpenAiError(e: unknown, timeoutMs: number, outcome: FetchOutcome, m: Sdk): ProviderError {
  const { APIConnectionTimeoutError, APIConnectionError, APIError, APIUserAbortError } = m;
  if (e instanceof ProviderError) return e;
  // The SDK wraps what happened inside fetch in its own connection errors.
  if (outcome.failure instanceof ResponseTooLarge) return new ProviderError('bad-response', outcome.failure.message);
  if (outcome.failure) return new ProviderError('timeout', outcome.failure.message);
  if (e instanceof APIConnectionTimeoutError || e instanceof APIUserAbortError) {
    return new ProviderError('timeout', `no complete response within ${timeoutMs} ms (headers and body)`);
  }
  if (e instanceof APIConnectionError) return new ProviderError('network', cleanMessage(e.message));
  if (e instanceof APIError && typeof e.status === 'number') {
    return new ProviderError(kindForStatus(e.status), `HTTP ${e.status}: ${cleanMessage(e.message)}`, {
      status: e.status,
      retryAfterMs: parseRetryAfter(e.headers?.get('retry-after')),
    });
  }
  // The SDK raises a SyntaxError-like error when a 200 body is not JSON.
  return new ProviderError('bad-response', cleanMessage(e instanceof Error ? e.message : String(e)));
}
