import type OpenAI from 'openai';
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
 * are off: ../llm-client.ts retries, with one policy for all providers.
 */
export function createOpenAiProvider(opts: { apiKey: string; baseUrl?: string }): LlmProvider {
  const baseUrl = opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  let client: Promise<OpenAI> | undefined;
  const openClient = (): Promise<OpenAI> =>
    (client ??= loadSdk().then((m) => new m.default({ apiKey: opts.apiKey, baseURL: baseUrl, maxRetries: 0 })));
  return {
    name: 'openai',
    baseUrl: redactUrl(baseUrl),
    async complete(req: LlmRequest): Promise<LlmResponse> {
      let res: OpenAI.Chat.Completions.ChatCompletion;
      const api = await openClient();
      try {
        res = await api.chat.completions.create(chatBody(req, baseUrl), { timeout: req.timeoutMs, maxRetries: 0 });
      } catch (e) {
        throw classifyOpenAiError(e, req.timeoutMs, await loadSdk());
      }
      return chatAnswer(res);
    },
  };
}

function classifyOpenAiError(e: unknown, timeoutMs: number, m: Sdk): ProviderError {
  const { APIConnectionTimeoutError, APIConnectionError, APIError, APIUserAbortError } = m;
  if (e instanceof ProviderError) return e;
  if (e instanceof APIConnectionTimeoutError || e instanceof APIUserAbortError) {
    return new ProviderError('timeout', `no answer within ${timeoutMs} ms`);
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
