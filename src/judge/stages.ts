import type { CallResult, LlmClient } from '../llm/client.js';
import type { ParseContext, Parsed, VerdictPath } from './parse-output.js';
import type { PromptTemplate } from './prompts.js';
import { renderWithData } from './prompts.js';
import type { ChatMessage, ResponseSchema } from '../llm/providers/types.js';

/** Calls, tokens, cost and latency spent on one item (re-asks included). */
export interface Usage {
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  latencyMs: number;
}

export function emptyUsage(): Usage {
  return { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0 };
}

/** Adds one call's tokens, cost and latency to an item's usage. */
export function addCall(usage: Usage, res: CallResult): void {
  usage.calls += 1;
  if (res.cached) usage.cachedCalls += 1;
  usage.inputTokens += res.usage.inputTokens;
  usage.outputTokens += res.usage.outputTokens;
  usage.costUsd += res.costUsd;
  usage.latencyMs += res.latencyMs;
}

export type StageResult<T> = { ok: true; answer: T; path: VerdictPath } | { ok: false; problem: string };

/** A stage's inputs: the benchmark's own text, and text a submission or a model wrote. */
export interface StageValues {
  trusted: Record<string, string>;
  /** Rendered as delimited data blocks (see untrusted.ts). */
  untrusted: Record<string, string>;
  /** The answer's JSON schema, for providers that constrain output to one. */
  responseSchema?: ResponseSchema;
}

/**
 * One judge stage: render, call, parse; on an invalid answer re-ask up to
 * `maxReasks` times, showing the model its answer and what was wrong with it.
 * Still invalid → not ok, with the reason (the item becomes unscored).
 * Provider failures and budget stops propagate to the caller.
 */
export async function runStage<T>(
  client: LlmClient,
  template: PromptTemplate,
  values: StageValues,
  parse: (text: string, ctx: ParseContext) => Parsed<T>,
  maxReasks: number,
  usage: Usage,
): Promise<StageResult<T>> {
  const { messages: first, data } = renderWithData(template, values.trusted, values.untrusted);
  let messages: ChatMessage[] = first;
  let problem = '';
  for (let attempt = 0; attempt <= maxReasks; attempt++) {
    const res = await client.call(template.hash, messages, { responseSchema: values.responseSchema });
    addCall(usage, res);
    const parsed = parse(res.text, { structured: res.structured, untrusted: data.contents, fence: data.fence });
    if (parsed.ok) return { ok: true, answer: parsed.value, path: parsed.path };
    problem = res.truncated
      ? `the answer was cut off at the output-token limit (${client.sampling.maxOutputTokens}; raise --max-output-tokens)`
      : parsed.problem;
    messages = [
      ...messages,
      { role: 'assistant', content: res.text },
      {
        role: 'user',
        content: `Your answer could not be used: ${problem}. Reply again with only the JSON object in the format asked for, and nothing else.`,
      },
    ];
  }
  return { ok: false, problem: `${template.name}: invalid answer after ${maxReasks + 1} attempts (${problem})` };
}
