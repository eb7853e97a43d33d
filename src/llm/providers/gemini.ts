import type { GoogleGenAI } from '@google/genai';
import { ProviderError, cleanMessage, kindForStatus, parseRetryAfter, redactUrl } from './types.js';
import type { LlmProvider, LlmRequest, LlmResponse } from './types.js';
import { GEMINI_DEFAULT_BASE_URL, geminiAnswer, geminiRequest } from './gemini-body.js';

type Sdk = typeof import('@google/genai');
let sdk: Promise<Sdk> | undefined;
/** The SDK takes tens of milliseconds to import: only a run that sends a request pays for it. */
const loadSdk = (): Promise<Sdk> => (sdk ??= import('@google/genai'));

/**
 * Gemini generateContent through @google/genai (v2; the old @google/generative-ai
 * is past end of life). The key travels in the x-goog-api-key header. The SDK
 * retries only when given retryOptions, which we never pass: ../llm-client.ts retries.
 */
export function createGeminiProvider(opts: { apiKey: string; baseUrl?: string; apiVersion?: string }): LlmProvider {
  const baseUrl = opts.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
  const apiVersion = opts.apiVersion ?? 'v1beta';
  let client: Promise<GoogleGenAI> | undefined;
  const openClient = (): Promise<GoogleGenAI> =>
    (client ??= loadSdk().then((m) => new m.GoogleGenAI({ apiKey: opts.apiKey, httpOptions: { baseUrl, apiVersion } })));
  return {
    name: 'gemini',
    baseUrl: redactUrl(baseUrl),
    async complete(req: LlmRequest): Promise<LlmResponse> {
      // ApiError carries only status and body, so a per-call fetch wrapper keeps Retry-After.
      let retryAfter: string | null = null;
      const fetchKeepingRetryAfter: typeof fetch = async (input, init) => {
        const r = await fetch(input, init);
        retryAfter = r.headers.get('retry-after');
        return r;
      };
      const signal = AbortSignal.timeout(req.timeoutMs);
      const { contents, config } = geminiRequest(req);
      const ai = await openClient();
      try {
        const res = await ai.models.generateContent({
          model: req.model,
          contents,
          config: { ...config, abortSignal: signal, httpOptions: { baseUrl, apiVersion, timeout: req.timeoutMs, fetch: fetchKeepingRetryAfter } },
        });
        return geminiAnswer(res);
      } catch (e) {
        throw classifyGeminiError(e, req.timeoutMs, signal, retryAfter, (await loadSdk()).ApiError);
      }
    },
  };
}


/** Gemini puts the wait in the body too: error.details[].retryDelay = "7s". */
function retryDelayFromBody(message: string): number | undefined {
  const m = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message);
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

function classifyGeminiError(
  e: unknown,
  timeoutMs: number,
  signal: AbortSignal,
  retryAfter: string | null,
  ApiError: Sdk['ApiError'],
): ProviderError {
  if (e instanceof ProviderError) return e;
  if (e instanceof ApiError) {
    return new ProviderError(kindForStatus(e.status), `HTTP ${e.status}: ${cleanMessage(e.message)}`, {
      status: e.status,
      retryAfterMs: parseRetryAfter(retryAfter) ?? retryDelayFromBody(e.message),
    });
  }
  const name = e instanceof Error ? e.name : '';
  if (signal.aborted || name === 'AbortError' || name === 'TimeoutError') {
    return new ProviderError('timeout', `no answer within ${timeoutMs} ms`);
  }
  if (e instanceof SyntaxError) return new ProviderError('bad-response', cleanMessage(e.message));
  if (e instanceof TypeError) return new ProviderError('network', cleanMessage(e.message));
  return new ProviderError('bad-response', cleanMessage(e instanceof Error ? e.message : String(e)));
}
