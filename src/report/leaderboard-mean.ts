import type { MeanLeaderboard } from '../stats/mean-leaderboard.js';
import type { Report } from './model.js';

export interface MeanContext {
  files: string[];
  metric: string;
  label: string;
}

export function meanJson(lb: MeanLeaderboard, ctx: MeanContext): Record<string, unknown> {
  return { mode: 'items', metric: ctx.metric, field: lb.field, files: ctx.files, tasks: lb.tasks, confidence: lb.confidence, seed: lb.seed, iterations: lb.iterations, method: lb.method, systems: lb.systems };
}

/** `leaderboard --metric soft-f1|ves|r-ves`: systems by the metric's mean, intervals, gap to #1. */
export function meanReport(lb: MeanLeaderboard, ctx: MeanContext): Report {
  const close = lb.systems.filter((s) => s.rank > 1 && s.notSignificantlyBelowTop).length;
  return {
    title: `Leaderboard by ${ctx.label}`,
    meta: { files: ctx.files.join(', '), tasks: lb.tasks, metric: ctx.metric },
    sections: [
      {
        title: 'Systems',
        plots: [
          {
            kind: 'interval',
            title: `${ctx.label} by rank, ${Math.round(lb.confidence * 100)}% bootstrap intervals`,
            axisLabel: ctx.label,
            percent: true,
            valueLabel: `${ctx.label} (bar: bootstrap interval)`,
            points: lb.systems.map((s) => ({ label: s.system, rank: s.rank, value: s.mean.estimate, low: s.mean.low, high: s.mean.high })),
          },
        ],
        table: {
          columns: [
            { key: 'rank', header: '#', format: 'integer' },
            { key: 'system', header: 'System' },
            { key: 'mean', header: `${ctx.label} [CI]`, format: 'percent' },
            { key: 'vsTop', header: 'Δ vs #1 [CI]', format: 'points' },
            { key: 'same', header: 'Not signif. below #1', short: 'Not below #1' },
            { key: 'absent', header: 'No value', format: 'integer' },
          ],
          rows: lb.systems.map((s) => ({
            rank: s.rank,
            system: s.system,
            mean: s.mean,
            vsTop: s.vsTop ? { estimate: s.vsTop.estimate, low: s.vsTop.low, high: s.vsTop.high } : null,
            same: s.rank === 1 ? '' : s.notSignificantlyBelowTop ? 'yes' : 'no',
            absent: s.absent,
          })),
        },
        notes: [
          `Intervals: ${lb.method}. Δ vs #1: paired bootstrap over tasks on the same resamples; "not significantly below #1" = its interval includes 0 (each comparison at its own level, no multiplicity correction).`,
          `${close} of the ${Math.max(0, lb.systems.length - 1)} systems below rank 1 are not significantly below it at this confidence; not rejecting is not a tie.`,
          'A task without a value for the metric counts 0, as score counts a missing prediction.',
        ],
      },
    ],
  };
}
