import type { GoogleGenAI } from '@google/genai';
import { boundedFetch, DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLarge } from '../bounded-fetch.js';
import type { FetchOutcome } from '../bounded-fetch.js';
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
export function createGeminiProvider(opts: {
  apiKey: string;
  baseUrl?: string;
  apiVersion?: string;
  maxResponseBytes?: number;
  structuredOutput?: boolean;
}): LlmProvider {
  const baseUrl = opts.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
  const apiVersion = opts.apiVersion ?? 'v1beta';
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const structuredOutput = opts.structuredOutput ?? true;
  let client: Promise<GoogleGenAI> | undefined;
  const openClient = (): Promise<GoogleGenAI> =>
    (client ??= loadSdk().then((m) => new m.GoogleGenAI({ apiKey: opts.apiKey, httpOptions: { baseUrl, apiVersion } })));
  return {
    name: 'gemini',
    baseUrl: redactUrl(baseUrl),
    structuredOutput,
    async complete(req: LlmRequest): Promise<LlmResponse> {
      // ApiError carries only status and body, so a per-call fetch wrapper keeps Retry-After;
      // the bounded fetch under it holds one deadline over headers and body, and a byte cap.
      let retryAfter: string | null = null;
      const outcome: FetchOutcome = {};
      const bounded = boundedFetch({ deadlineMs: req.timeoutMs, maxBytes }, outcome);
      const fetchKeepingRetryAfter: typeof fetch = async (input, init) => {
        const r = await bounded(input, init);
        retryAfter = r.headers.get('retry-after');
        return r;
      };
      // The bounded fetch holds the deadline; the SDK's own timer is only a backstop.
      const signal = AbortSignal.timeout(req.timeoutMs + 1000);
      // Without structured output the schema stays out of the request.
      const { contents, config } = geminiRequest(structuredOutput ? req : { ...req, responseSchema: undefined });
      const ai = await openClient();
      try {
        const res = await ai.models.generateContent({
          model: req.model,
          contents,
          config: { ...config, abortSignal: signal, httpOptions: { baseUrl, apiVersion, timeout: req.timeoutMs + 1000, fetch: fetchKeepingRetryAfter } },
        });
        return geminiAnswer(res);
      } catch (e) {
        if (outcome.failure instanceof ResponseTooLarge) throw new ProviderError('bad-response', outcome.failure.message);
        if (outcome.failure) throw new ProviderError('timeout', outcome.failure.message);
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
    return new ProviderError('timeout', `no complete response within ${timeoutMs} ms (headers and body)`);
  }
  if (e instanceof SyntaxError) return new ProviderError('bad-response', cleanMessage(e.message));
  if (e instanceof TypeError) return new ProviderError('network', cleanMessage(e.message));
  return new ProviderError('bad-response', cleanMessage(e instanceof Error ? e.message : String(e)));
}
