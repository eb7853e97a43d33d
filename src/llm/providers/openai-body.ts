import type OpenAI from 'openai';
import { ProviderError, isReasoningModel } from './types.js';
import type { LlmRequest, LlmResponse } from './types.js';
import { reportedCount } from '../usage.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export type ChatBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/**
 * The chat-completions request body for one call. The online provider and the batch
 * transport both build it here, so a call asked through a batch is byte for byte the
 * call an online run would send (and its answer means the same).
 */
export function chatBody(req: LlmRequest, baseUrl: string): ChatBody {
  const reasoning = isReasoningModel(req.model);
  // OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens);
  // OpenAI-compatible servers (vLLM, Ollama, llama.cpp) all know max_tokens.
  const limit =
    reasoning || baseUrl === OPENAI_DEFAULT_BASE_URL
      ? { max_completion_tokens: req.sampling.maxOutputTokens }
      : { max_tokens: req.sampling.maxOutputTokens };
  return {
    model: req.model,
    messages: req.messages,
    // Reasoning models accept only their default temperature.
    ...(reasoning ? {} : { temperature: req.sampling.temperature }),
    ...limit,
    ...(req.responseSchema
      ? { response_format: { type: 'json_schema' as const, json_schema: { name: req.responseSchema.name, strict: true, schema: { ...req.responseSchema.schema } } } }
      : {}),
  };
}

/** A chat completion as the client's answer; a 200 whose body is no completion is a bad response. */
export function chatAnswer(res: OpenAI.Chat.Completions.ChatCompletion | undefined): LlmResponse {
  // A 200 whose body is not a chat completion (a proxy's HTML page, a truncated body).
  const choice = Array.isArray(res?.choices) ? res.choices[0] : undefined;
  const text = choice?.message?.content;
  if (typeof text !== 'string') {
    throw new ProviderError('bad-response', 'the response has no choices[0].message.content');
  }
  return {
    text,
    // Absent or malformed counts ("lots", -1) stay unknown: the client prices them at the worst case.
    usage: {
      inputTokens: reportedCount((res?.usage as { prompt_tokens?: unknown } | undefined)?.prompt_tokens),
      outputTokens: reportedCount((res?.usage as { completion_tokens?: unknown } | undefined)?.completion_tokens),
    },
    resolvedModel: typeof res?.model === 'string' ? res.model : undefined,
    truncated: choice?.finish_reason === 'length',
  };
}
