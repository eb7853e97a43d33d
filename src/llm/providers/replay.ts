import { parseJsonLines, readText } from '../../benchmark/read-json.js';
import { InputFileError } from '../../errors.js';
import { sha256 } from '../hash.js';
import { reportedCount } from '../usage.js';
import { ProviderError } from './types.js';
import type { ChatMessage, LlmProvider, LlmRequest, LlmResponse } from './types.js';

/**
 * Answers from a JSONL file of recorded responses, for offline demos and
 * reproducible examples. Each line: `{"text": "...", "requestHash"?: "...",
 * "contains"?: ["..."], "inputTokens"?: n, "outputTokens"?: n, "model"?: "..."}`.
 * A line with `requestHash` answers exactly that request (see `replayRequestHash`);
 * a line with `contains` answers the first request whose messages hold every
 * string. Lines are tried in file order; a request nothing answers is a client
 * error (the item becomes unscored, never guessed).
 */
export interface ReplayEntry {
  text: string;
  requestHash?: string;
  contains?: string[];
  inputTokens?: number;
  outputTokens?: number;
  model?: string;
}

export function replayRequestHash(model: string, messages: ChatMessage[]): string {
  return sha256(JSON.stringify({ model, messages }));
}

function readReplayFile(file: string): ReplayEntry[] {
  return parseJsonLines(file, readText(file), 'recorded response').map(({ value, line }) => {
    const r = value as Partial<ReplayEntry>;
    if (typeof r.text !== 'string') throw new InputFileError(file, line, 'expected an object with a string "text"');
    if (r.requestHash === undefined && !Array.isArray(r.contains)) {
      throw new InputFileError(file, line, 'needs "requestHash" or a "contains" array to say which request it answers');
    }
    // A count that is not one would make the cost NaN, which the run store refuses (issue 30).
    for (const k of ['inputTokens', 'outputTokens'] as const) {
      if (r[k] !== undefined && reportedCount(r[k]) === undefined) throw new InputFileError(file, line, `"${k}" must be a whole number of tokens, 0 or more (got ${JSON.stringify(r[k])})`);
    }
    return r as ReplayEntry;
  });
}

export function createReplayProvider(opts: { file: string }): LlmProvider {
  const entries = readReplayFile(opts.file);
  return {
    name: 'replay',
    baseUrl: `replay:${opts.file}`,
    structuredOutput: false,
    async complete(req: LlmRequest): Promise<LlmResponse> {
      const hash = replayRequestHash(req.model, req.messages);
      const all = req.messages.map((m) => m.content).join('\n');
      const hit =
        entries.find((e) => e.requestHash === hash) ??
        entries.find((e) => e.requestHash === undefined && (e.contains ?? []).every((s) => all.includes(s)));
      if (!hit) throw new ProviderError('client', `no recorded response in ${opts.file} answers this request (hash ${hash.slice(0, 16)})`);
      return {
        text: hit.text,
        usage: { inputTokens: hit.inputTokens ?? 0, outputTokens: hit.outputTokens ?? 0 },
        resolvedModel: hit.model,
      };
    },
  };
}
