import type { GenerateContentResponse } from '@google/genai';
import { ProviderError } from './types.js';
import type { ChatMessage, LlmRequest, LlmResponse, ReportedUsage } from './types.js';
import { reportedCount } from '../usage.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Chat messages as Gemini wants them: system messages as one systemInstruction, assistant turns as "model". */
function toGemini(messages: ChatMessage[]): {
  system: string | undefined;
  contents: { role: 'user' | 'model'; parts: { text: string }[] }[];
} {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
  const contents = messages
    .filter((m) => m.role !== 'system')
    .map((m) => ({ role: m.role === 'assistant' ? ('model' as const) : ('user' as const), parts: [{ text: m.content }] }));
  return { system: system === '' ? undefined : system, contents };
}

/**
 * The generateContent request for one call (without transport options). The online provider
 * and the batch transport both build it here, so a batched call is the online call.
 */
export function geminiRequest(req: Omit<LlmRequest, 'timeoutMs'>): {
  contents: { role: 'user' | 'model'; parts: { text: string }[] }[];
  config: { systemInstruction: string | undefined; temperature: number; maxOutputTokens: number; responseMimeType?: string; responseSchema?: Record<string, unknown> };
} {
  const { system, contents } = toGemini(req.messages);
  const schema = req.responseSchema ? { responseMimeType: 'application/json', responseSchema: geminiSchema(req.responseSchema.schema) } : {};
  return { contents, config: { systemInstruction: system, temperature: req.sampling.temperature, maxOutputTokens: req.sampling.maxOutputTokens, ...schema } };
}

/**
 * A JSON schema in Gemini's OpenAPI subset: type names in capitals, no additionalProperties,
 * the properties kept in their order (Gemini otherwise sorts them, and the reason should come first).
 */
function geminiSchema(s: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'additionalProperties') continue;
    if (k === 'type' && typeof v === 'string') out.type = v.toUpperCase();
    else if (k === 'properties' && v && typeof v === 'object') {
      out.properties = Object.fromEntries(Object.entries(v).map(([p, ps]) => [p, geminiSchema(ps as Record<string, unknown>)]));
      out.propertyOrdering = Object.keys(v);
    } else out[k] = v;
  }
  return out;
}


/**
 * A generateContent response as the client's answer; the online provider and the batch
 * transport both read answers here, so a batch answer means what an online one means.
 */
export function geminiAnswer(res: GenerateContentResponse): LlmResponse {
  const block = res.promptFeedback?.blockReason;
  // A blocked prompt stays blocked: not worth a retry.
  if (block) throw new ProviderError('client', `Gemini blocked the prompt (${block})`);
  const cand = res.candidates?.[0];
  if (!cand) throw new ProviderError('bad-response', 'the response has no candidates');
  // A candidate without text (cut at the token limit while thinking, or a safety stop) is
  // the model's answer, empty: the caller's parser says why it cannot be used.
  const text = (cand.content?.parts ?? []).filter((p) => !p.thought).map((p) => p.text ?? '').join('');
  return {
    text,
    usage: geminiUsage(res.usageMetadata),
    resolvedModel: res.modelVersion,
    truncated: cand.finishReason === 'MAX_TOKENS',
  };
}

/**
 * Gemini's token counts. Its JSON leaves out a count that is 0 (proto3), so an absent output count
 * is 0; no usageMetadata (or not an object), no prompt count (a prompt is never 0 tokens), or a
 * count that is not a whole number ("lots", -1) is unknown: the client prices it at the worst case.
 * Thinking tokens are billed as output.
 */
function geminiUsage(u: GenerateContentResponse['usageMetadata']): ReportedUsage {
  if (u === undefined || u === null || typeof u !== 'object' || Array.isArray(u)) return { inputTokens: undefined, outputTokens: undefined };
  const output = (v: unknown): number | undefined => (v === undefined ? 0 : reportedCount(v));
  const candidates = output(u.candidatesTokenCount);
  const thoughts = output(u.thoughtsTokenCount);
  return { inputTokens: reportedCount(u.promptTokenCount), outputTokens: candidates === undefined || thoughts === undefined ? undefined : candidates + thoughts };
}
