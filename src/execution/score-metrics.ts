import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import { UserError } from '../errors.js';
import { PARTIAL_TYPES, type PartialType } from '../sql/spider-exact.js';
import { runExactMatch, type EmInputs, type EmItem } from './em-run.js';
import type { ExRun } from './ex-run.js';
import { CONTINUOUS_METRICS, meanScore, type ContinuousMetric } from './metric-means.js';

export type MetricName = 'ex' | ContinuousMetric;
export const METRIC_NAMES: readonly MetricName[] = ['ex', ...CONTINUOUS_METRICS];

/** Official defaults: BIRD's evaluation reports EX and Soft-F1, Spider's EX and exact match. */
export function defaultMetrics(format: Benchmark['format']): MetricName[] {
  return format === 'bird' ? ['ex', 'soft-f1'] : ['ex', 'em'];
}

/** Whether a run with these --metric values computes Soft-F1 (true when they do not parse: the caller reports that later). */
export function softF1Asked(values: readonly string[] | undefined, format: Benchmark['format']): boolean {
  try {
    return (values ? parseMetrics(values) : defaultMetrics(format)).includes('soft-f1');
  } catch {
    return true;
  }
}

/** `--metric ex,soft-f1 --metric em` → the distinct names in order; EX is always computed. */
export function parseMetrics(values: readonly string[]): MetricName[] {
  const out: MetricName[] = [];
  for (const v of values.flatMap((s) => s.split(','))) {
    const name = v.trim().toLowerCase();
    if (name === '') continue;
    if (!(METRIC_NAMES as readonly string[]).includes(name)) {
      throw new UserError(`unknown metric "${v.trim()}" in --metric: choose from ${METRIC_NAMES.join(', ')}`);
    }
    if (!out.includes(name as MetricName)) out.push(name as MetricName);
  }
  return out;
}

/** Official printed partial accuracy / recall / F1 of one component over a set of items. */
export interface PartialTotal {
  acc: number;
  rec: number;
  f1: number;
}

/**
 * evaluation.py's printed partial scores: accuracy averages the items whose prediction has the
 * component (pred_total > 0), recall those whose gold has it (label_total > 0); F1 is 1 when
 * both averages are 0 (so a component no query has prints 1.000).
 */
export function partialTotals(items: readonly EmItem[]): Record<PartialType, PartialTotal> {
  const out = {} as Record<PartialType, PartialTotal>;
  for (const k of PARTIAL_TYPES) {
    let acc = 0;
    let accN = 0;
    let rec = 0;
    let recN = 0;
    for (const it of items) {
      const p = it.partial[k];
      if (p.pred_total > 0) {
        acc += p.acc;
        accN++;
      }
      if (p.label_total > 0) {
        rec += p.rec;
        recN++;
      }
    }
    const a = accN === 0 ? 0 : acc / accN;
    const r = recN === 0 ? 0 : rec / recN;
    out[k] = { acc: a, rec: r, f1: a === 0 && r === 0 ? 1 : (2 * a * r) / (a + r) };
  }
  return out;
}

/**
 * Adds Spider's exact set match to a scored run: `em` (0/1) on every item (0 for a missing
 * prediction), `emParsed: false` where the official parser rejects the prediction, the mean per
 * system and difficulty, and the official partial totals.
 */
export function addExactMatch(run: ExRun, bench: Benchmark, systems: PredictionSet[], inputs: EmInputs): void {
  const results = runExactMatch(bench, systems, inputs);
  const bySystem = new Map(systems.map((s, si) => [s.system, results[si]!]));
  const taskIndex = new Map(bench.tasks.map((t, i) => [t.id, i]));
  for (const it of run.items) {
    const r = bySystem.get(it.system)?.[taskIndex.get(it.taskId)!];
    it.em = r?.em ?? 0;
    if (r && !r.predParsed) it.emParsed = false;
  }
  for (const s of run.systems) {
    s.metrics.em = meanScore(
      run.items.filter((it) => it.system === s.name),
      'em',
      run.difficultyLevels,
    );
    const scored = (bySystem.get(s.name) ?? []).filter((r): r is EmItem => r !== undefined);
    s.emPartial = partialTotals(scored);
    s.emUnparsed = scored.filter((r) => !r.predParsed).length;
  }
}
