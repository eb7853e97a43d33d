import type { Benchmark, PredictionSet } from '../benchmark/types.js';

/** What the loaders repaired or kept on reading (duplicate ids, restored `SELECT `), as `sqlboard: SOURCE: note` lines for stderr. */
export function loadNotes(questions: string, bench: Benchmark, sets: readonly PredictionSet[]): string[] {
  return [
    ...(bench.notes ?? []).map((note) => `sqlboard: ${questions}: ${note}\n`),
    ...sets.flatMap((s) => (s.notes ?? []).map((note) => `sqlboard: ${s.system}: ${note}\n`)),
  ];
}
