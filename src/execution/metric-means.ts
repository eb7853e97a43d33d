import type { ItemRecord } from '../benchmark/types.js';

/** The metrics that are per-item numbers in [0, 1] (EX is the boolean `correct`). */
export const CONTINUOUS_METRICS = ['soft-f1', 'em', 'ves', 'r-ves'] as const;
export type ContinuousMetric = (typeof CONTINUOUS_METRICS)[number];

/** The `--items` field each continuous metric is written to. */
export const ITEM_FIELD: Record<ContinuousMetric, string> = { 'soft-f1': 'softF1', em: 'em', ves: 'ves', 'r-ves': 'rVes' };

export interface MeanCell {
  n: number;
  sum: number;
  mean: number;
}

export interface MeanScore extends MeanCell {
  byDifficulty: Record<string, MeanCell>;
}

/** The mean of a metric over a system's items (an item without the field counts 0), overall and by difficulty. */
export function meanScore(items: readonly ItemRecord[], metric: ContinuousMetric, levels: readonly string[]): MeanScore {
  const field = ITEM_FIELD[metric];
  const total: MeanCell = { n: 0, sum: 0, mean: 0 };
  const byDifficulty: Record<string, MeanCell> = Object.fromEntries(levels.map((l) => [l, { n: 0, sum: 0, mean: 0 }]));
  for (const it of items) {
    const v = typeof it[field] === 'number' ? (it[field] as number) : 0;
    total.n++;
    total.sum += v;
    const cell = (byDifficulty[it.difficulty ?? 'unknown'] ??= { n: 0, sum: 0, mean: 0 });
    cell.n++;
    cell.sum += v;
  }
  for (const c of [total, ...Object.values(byDifficulty)]) c.mean = c.n > 0 ? c.sum / c.n : 0;
  return { ...total, byDifficulty };
}
