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
 * error (the item becomes unscored, never guessed). docs/formats.md describes the format.
 */
export interface ReplayEntry {
  text: string;
  requestHash?: string;
  contains?: string[];
  inputTokens?: number;
  outputTokens?: number;
  model?: string;
}

/** One well-formed line, quoted in every error about the file's shape so the fix is a copy away. */
export const REPLAY_LINE_EXAMPLE = '{"contains": ["You are the Prover", "singers from France"], "text": "the model\'s answer, verbatim"}';

const SHAPE = `one JSON object per line with a string "text" and either "requestHash" (from --record) or "contains" (strings the request must hold), e.g. ${REPLAY_LINE_EXAMPLE} (docs/formats.md)`;

export function replayRequestHash(model: string, messages: ChatMessage[]): string {
  return sha256(JSON.stringify({ model, messages }));
}

/** What is wrong with one parsed line, or undefined when it is a usable entry. */
function lineProblem(r: Record<string, unknown>): string | undefined {
  if (typeof r.text !== 'string') return 'no string "text" (the recorded answer)';
  if (r.requestHash === undefined && r.contains === undefined) return 'neither "requestHash" nor "contains" says which request it answers';
  if (r.requestHash !== undefined && typeof r.requestHash !== 'string') return '"requestHash" is not a string';
  if (r.contains !== undefined && !(Array.isArray(r.contains) && r.contains.every((s) => typeof s === 'string'))) return '"contains" is not an array of strings';
  for (const k of ['inputTokens', 'outputTokens'] as const) {
    // A count that is not one would make the cost NaN, which the run store refuses (issue 30).
    if (r[k] !== undefined && reportedCount(r[k]) === undefined) return `"${k}" must be a whole number of tokens, 0 or more (got ${JSON.stringify(r[k])})`;
  }
  if (r.model !== undefined && typeof r.model !== 'string') return '"model" is not a string';
  return undefined;
}

export function readReplayFile(file: string): ReplayEntry[] {
  // Read outside the try: an unreadable or non-UTF-8 file's own error (byte offset, what to do) stands.
  const text = readText(file);
  let parsed: ReturnType<typeof parseJsonLines>;
  try {
    parsed = parseJsonLines(file, text, 'recorded response');
  } catch (e) {
    // A line that is no JSON object: say what a line should look like, not only that it is not one.
    if (e instanceof InputFileError && e.line !== undefined) throw new InputFileError(file, e.line, `not a JSON object; expected ${SHAPE}`);
    throw e;
  }
  // An empty recording answers nothing: every item would end unscored under a judge named after today.
  if (parsed.length === 0) throw new InputFileError(file, undefined, `the recording is empty; expected ${SHAPE} (sqlboard judge --record FILE writes one)`);
  return parsed.map(({ value, line }) => {
    const problem = lineProblem(value);
    if (problem) throw new InputFileError(file, line, `${problem}; expected ${SHAPE}`);
    return value as unknown as ReplayEntry;
  });
}

/**
 * The dated model the recording names, when every line that names one names the same
 * (a recording of one judge): the judge is named after it, never after the day it is replayed.
 */
function recordedModel(entries: ReplayEntry[]): string | undefined {
  const models = new Set(entries.map((e) => e.model).filter((m): m is string => m !== undefined));
  return models.size === 1 ? [...models][0] : undefined;
}

export function createReplayProvider(opts: { file: string }): LlmProvider {
  const entries = readReplayFile(opts.file);
  return {
    name: 'replay',
    baseUrl: `replay:${opts.file}`,
    structuredOutput: false,
    recordedModel: recordedModel(entries),
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
