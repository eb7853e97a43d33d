import type { Benchmark, PredictionSet } from '../benchmark/types.js';

/** What the loaders repaired or kept on reading (duplicate ids, restored `SELECT `), as `SOURCE: note` lines (the CLI prints them on stderr). */
export function loadNotes(questions: string, bench: Benchmark, sets: readonly PredictionSet[]): string[] {
  return [
    ...(bench.notes ?? []).map((note) => `${questions}: ${note}`),
    ...sets.flatMap((s) => (s.notes ?? []).map((note) => `${s.system}: ${note}`)),
  ];
}
