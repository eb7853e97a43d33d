import type { CallKeyParts } from './cache.js';
import { costUsd, type Price } from './pricing.js';
import type { ReportedUsage, TokenUsage } from './providers/types.js';
import { tokenCounterFor } from './token-count.js';

/**
 * A token count as an API reported it, or undefined when it is not one: absent, not a number
 * ("lots"), negative, fractional or beyond exact integers. Such a count must not price a call
 * (NaN reached the run store's NOT NULL cost column and lost the paid answer, issue 30): the
 * caller prices the call at its worst case instead.
 */
export function reportedCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** What a call's request could cost at most: its prompt counted with the model's tokenizer (an upper bound) and its full output allowance. */
export interface CallSize {
  provider: string;
  model: string;
  messages: readonly { content: string }[];
  /** Text the API adds to the prompt (a JSON schema for structured output). */
  extra: readonly string[];
  maxOutputTokens: number;
}

/** The size of a call as its key's parts give it (the output allowance is the sampling's). */
export function callSize(parts: CallKeyParts): CallSize {
  return {
    provider: parts.provider,
    model: parts.model,
    messages: parts.messages,
    extra: parts.responseSchema ? [JSON.stringify(parts.responseSchema.schema)] : [],
    maxOutputTokens: parts.sampling.maxOutputTokens,
  };
}

/** The token counts a call's worst case stands for: the most a budget reserves for it (client.ts). */
export async function worstCaseUsage(size: CallSize): Promise<TokenUsage> {
  const count = await tokenCounterFor(size.provider, size.model);
  return { inputTokens: count({ messages: size.messages, extra: size.extra }), outputTokens: size.maxOutputTokens };
}

/** A call's usage and cost, with whatever count the API did not report usably taken at its worst case. */
export async function usageOf(
  reported: ReportedUsage,
  size: CallSize,
  price: Price | undefined,
): Promise<{ usage: TokenUsage; costUsd: number; usageUnknown?: true }> {
  const { inputTokens, outputTokens } = reported;
  if (inputTokens !== undefined && outputTokens !== undefined) {
    const usage = { inputTokens, outputTokens };
    return { usage, costUsd: costUsd(usage, price) };
  }
  const worst = await worstCaseUsage(size);
  const usage = { inputTokens: inputTokens ?? worst.inputTokens, outputTokens: outputTokens ?? worst.outputTokens };
  return { usage, costUsd: costUsd(usage, price), usageUnknown: true };
}

/** What a run says about the answers that came without a usable token count (none: undefined). */
export function unknownUsageNote(s: { unknownUsage: number; unknownUsageUsd: number }, priced: boolean): string | undefined {
  if (s.unknownUsage === 0) return undefined;
  const n = s.unknownUsage === 1 ? '1 answer' : `${s.unknownUsage} answers`;
  const cost = priced ? `, ${s.unknownUsageUsd.toFixed(4)} USD in all` : '';
  return `${n} came without a usable token count (usage absent, not a whole number, or negative): kept, and counted at the worst case of the request (its prompt counted, the full output allowance)${cost}.`;
}
