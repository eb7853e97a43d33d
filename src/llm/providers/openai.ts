import type OpenAI from 'openai';
import { ProviderError, cleanMessage, kindForStatus, parseRetryAfter } from './types.js';
import { isReasoningModel, redactUrl } from './types.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './types.js';

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

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
      const reasoning = isReasoningModel(req.model);
      // OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens);
      // OpenAI-compatible servers (vLLM, Ollama, llama.cpp) all know max_tokens.
      const limit =
        reasoning || baseUrl === OPENAI_DEFAULT_BASE_URL
          ? { max_completion_tokens: req.sampling.maxOutputTokens }
          : { max_tokens: req.sampling.maxOutputTokens };
      let res: OpenAI.Chat.Completions.ChatCompletion;
      const api = await openClient();
      try {
        res = await api.chat.completions.create(
          {
            model: req.model,
            messages: req.messages,
            // Reasoning models accept only their default temperature.
            ...(reasoning ? {} : { temperature: req.sampling.temperature }),
            ...limit,
          },
          { timeout: req.timeoutMs, maxRetries: 0 },
        );
      } catch (e) {
        throw classifyOpenAiError(e, req.timeoutMs, await loadSdk());
      }
      // A 200 whose body is not a chat completion (a proxy's HTML page, a truncated body).
      const choice = Array.isArray(res?.choices) ? res.choices[0] : undefined;
      const text = choice?.message?.content;
      if (typeof text !== 'string') {
        throw new ProviderError('bad-response', 'the response has no choices[0].message.content');
      }
      return {
        text,
        usage: {
          inputTokens: res.usage?.prompt_tokens ?? 0,
          outputTokens: res.usage?.completion_tokens ?? 0,
        },
        resolvedModel: typeof res.model === 'string' ? res.model : undefined,
        truncated: choice?.finish_reason === 'length',
      };
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
