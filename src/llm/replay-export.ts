import type { LlmCache } from './cache.js';
import { replayRequestHash } from './providers/replay.js';
import type { ReplayEntry } from './providers/replay.js';

/**
 * The replay lines (`--provider replay --replay FILE`) for the given calls, in
 * the order given: a recorded run can then be shown again offline, with no key
 * and no network. Lines hold the model's answers, never a key.
 */
export function replayEntries(cache: LlmCache, keys: Iterable<string>): ReplayEntry[] {
  const out: ReplayEntry[] = [];
  for (const k of keys) {
    const r = cache.getRecorded(k);
    if (!r) continue;
    const e: ReplayEntry = {
      requestHash: replayRequestHash(r.model, r.messages),
      text: r.call.text,
      inputTokens: r.call.usage.inputTokens,
      outputTokens: r.call.usage.outputTokens,
    };
    if (r.call.resolvedModel) e.model = r.call.resolvedModel;
    out.push(e);
  }
  return out;
}

export function formatReplay(entries: ReplayEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join('\n') + (entries.length ? '\n' : '');
}
