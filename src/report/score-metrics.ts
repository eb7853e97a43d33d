import type { ExRun, SystemScore } from '../execution/ex-run.js';
import { ITEM_FIELD, type ContinuousMetric } from '../execution/metric-means.js';
import { bootstrapInterval } from '../stats/bootstrap.js';
import { wilson, type Interval } from '../stats/intervals.js';
import type { Column, Section } from './model.js';

/** Display names and whose definition each metric follows (docs/commands/score.md's metric table says more). */
export const METRIC_LABEL: Record<ContinuousMetric, string> = { 'soft-f1': 'Soft-F1', em: 'EM', ves: 'VES', 'r-ves': 'R-VES' };

/** The continuous metrics a run computed, in report order. */
export function runMetrics(run: ExRun): ContinuousMetric[] {
  const order: ContinuousMetric[] = ['soft-f1', 'em', 'ves', 'r-ves'];
  return order.filter((m) => run.systems.some((s) => s.metrics[m] !== undefined));
}

/**
 * A metric's 95% interval for one system: Wilson for EM (0/1 per item, like EX), a seeded
 * percentile bootstrap of the mean over items for the continuous ones.
 */
export function metricInterval(run: ExRun, s: SystemScore, m: ContinuousMetric): Interval | undefined {
  const score = s.metrics[m];
  if (!score) return undefined;
  if (m === 'em') return wilson(Math.round(score.sum), score.n);
  const field = ITEM_FIELD[m];
  const values = run.items.filter((it) => it.system === s.name).map((it) => (typeof it[field] === 'number' ? (it[field] as number) : 0));
  const { samples: _samples, ...ci } = bootstrapInterval(values.length, (idx) => {
    let sum = 0;
    for (const i of idx) sum += values[i]!;
    return sum / idx.length;
  });
  return ci;
}

/** `--json`: per metric the mean, its interval, by difficulty; EM's partial scores; VES's spread. */
export function systemMetricsJson(run: ExRun, s: SystemScore): object {
  const out: Record<string, object> = {};
  for (const m of runMetrics(run)) {
    const score = s.metrics[m]!;
    const ci = metricInterval(run, s, m)!;
    out[m] = {
      n: score.n,
      mean: score.mean,
      interval: { low: ci.low, high: ci.high, method: ci.method },
      byDifficulty: Object.fromEntries(Object.entries(score.byDifficulty).map(([l, c]) => [l, { n: c.n, mean: c.mean }])),
      ...(m === 'em' && s.emPartial ? { partial: s.emPartial, unparsed: s.emUnparsed ?? 0 } : {}),
      ...((m === 'ves' || m === 'r-ves') && s.vesSpread ? { timing: s.vesSpread } : {}),
    };
  }
  return out;
}

export function metricColumns(run: ExRun): Column[] {
  return runMetrics(run).map((m) => ({ key: `m_${m}`, header: `${METRIC_LABEL[m]} [95% CI]`, format: 'percent' }));
}

export function metricCells(run: ExRun, s: SystemScore): Record<string, Interval | undefined> {
  return Object.fromEntries(runMetrics(run).map((m) => [`m_${m}`, metricInterval(run, s, m)]));
}

/** One row per (system, metric) with the metric by difficulty; EM adds the parser's rejections. */
export function metricsByDifficultySection(run: ExRun, ranked: readonly SystemScore[]): Section | undefined {
  const metrics = runMetrics(run);
  if (metrics.length === 0) return undefined;
  const rows = ranked.flatMap((s) =>
    metrics.map((m) => ({
      system: s.name,
      metric: METRIC_LABEL[m],
      all: s.metrics[m]!.mean,
      ...Object.fromEntries(run.difficultyLevels.map((l) => [`d_${l}`, s.metrics[m]!.byDifficulty[l]?.n ? s.metrics[m]!.byDifficulty[l]!.mean : null])),
    })),
  );
  const notes: string[] = [];
  if (metrics.includes('soft-f1')) {
    notes.push("Soft-F1: BIRD mini-dev's evaluation_f1 on EX's own executions; rows are paired by position after de-duplication, so row order matters.");
  }
  if (metrics.includes('em')) {
    const unparsed = ranked.map((s) => `${s.name} ${s.emUnparsed ?? 0}`).join(', ');
    notes.push(`EM: Spider evaluation.py's exact set match without values; predictions its parser rejects score as the empty query (rejected: ${unparsed}).`);
  }
  for (const m of ['ves', 'r-ves'] as const) {
    if (!metrics.includes(m)) continue;
    const sp = ranked.map((s) => s.vesSpread).find((x) => x);
    const spread = ranked
      .filter((s) => s.vesSpread)
      .map((s) => `${s.name}: ${s.vesSpread!.timed} items timed, ${s.vesSpread!.failed} failed, median CV of ratios ${(100 * s.vesSpread!.medianCv).toFixed(1)}%, ${(100 * s.vesSpread!.droppedShare).toFixed(1)}% dropped as outliers`)
      .join('; ');
    notes.push(
      `${METRIC_LABEL[m]}: ${m === 'ves' ? "original BIRD's √(gold time / prediction time)" : "mini-dev's √reward of the time-ratio bucket"} on EX-correct items, ${sp?.reps ?? 0} timed repetitions each, outliers beyond mean ± 3σ dropped; shown ×100 as a percent. Timing spread: ${spread}.`,
    );
  }
  return {
    title: 'Metrics by difficulty',
    table: {
      columns: [
        { key: 'system', header: 'System' },
        { key: 'metric', header: 'Metric' },
        { key: 'all', header: 'all', format: 'percent' },
        ...run.difficultyLevels.map((l): Column => ({ key: `d_${l}`, header: l, format: 'percent' })),
      ],
      rows,
    },
    notes,
  };
}
