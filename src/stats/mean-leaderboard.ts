import { competitionRanks } from './board-gaps.js';
import type { ItemRecord } from '../benchmark/types.js';
import { UserError } from '../errors.js';
import { bootstrapInterval, pairedBootstrapDiff, type BootstrapOptions } from './bootstrap.js';
import type { Interval } from './intervals.js';
import { compareTaskIds, type VerdictSource } from './verdict-matrix.js';

export interface MeanStanding {
  rank: number;
  system: string;
  tasks: number;
  mean: Interval;
  /** Tasks with no value for the metric (counted 0, as `score` counts a missing prediction). */
  absent: number;
  /** Difference from rank 1, paired bootstrap over tasks (undefined for rank 1). */
  vsTop?: Interval & { pGreater: number };
  /** The paired interval of the difference from rank 1 includes 0. */
  notSignificantlyBelowTop: boolean;
}

export interface MeanLeaderboard {
  field: string;
  tasks: number;
  systems: MeanStanding[];
  confidence: number;
  seed: number;
  iterations: number;
  method: string;
}

/**
 * Systems ranked by the mean of a per-item number (Soft-F1, VES, R-VES from `score --items`),
 * with a seeded percentile-bootstrap interval each and a paired bootstrap of the difference
 * from rank 1. Tasks are the union over systems; a task without the value counts 0.
 */
export function meanLeaderboard(sources: readonly VerdictSource[], field: string, opts: Required<BootstrapOptions>): MeanLeaderboard {
  const bySystem = new Map<string, Map<string, number>>();
  const tasks = new Set<string>();
  for (const { file, records } of sources) {
    for (const rec of records as ItemRecord[]) {
      const v = rec[field];
      let m = bySystem.get(rec.system);
      if (!m) bySystem.set(rec.system, (m = new Map()));
      if (m.has(rec.taskId)) throw new UserError(`system "${rec.system}" has two records for task ${rec.taskId} (in ${file} or an earlier file)`);
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) {
        throw new UserError(`${file}: system "${rec.system}" task ${rec.taskId}: "${field}" must be a number`);
      }
      m.set(rec.taskId, typeof v === 'number' ? v : NaN);
      tasks.add(rec.taskId);
    }
  }
  const withField = [...bySystem.values()].some((m) => [...m.values()].some((v) => !Number.isNaN(v)));
  if (!withField) throw new UserError(`no record carries "${field}": write the files with \`sqlboard score --metric ... --items\``);
  const taskList = [...tasks].sort(compareTaskIds);
  const rows = [...bySystem.entries()].map(([system, m]) => {
    let absent = 0;
    const values = Float64Array.from(taskList, (t) => {
      const v = m.get(t);
      if (v === undefined || Number.isNaN(v)) {
        absent++;
        return 0;
      }
      return v;
    });
    const mean = bootstrapInterval(values.length, (idx) => {
      let s = 0;
      for (const i of idx) s += values[i]!;
      return s / idx.length;
    }, opts);
    return { system, values, absent, mean };
  });
  rows.sort((a, b) => b.mean.estimate - a.mean.estimate || a.system.localeCompare(b.system));
  const top = rows[0];
  // Equal means share the best rank, as the 0/1 leaderboard ranks equal counts.
  const ranks = competitionRanks(rows.map((r) => r.mean.estimate));
  const systems: MeanStanding[] = rows.map((r, i) => {
    const { samples: _s, ...mean } = r.mean;
    if (i === 0 || !top) return { rank: 1, system: r.system, tasks: taskList.length, mean, absent: r.absent, notSignificantlyBelowTop: true };
    const vsTop = pairedBootstrapDiff(r.values, top.values, opts);
    return { rank: ranks[i]!, system: r.system, tasks: taskList.length, mean, absent: r.absent, vsTop, notSignificantlyBelowTop: vsTop.low <= 0 && vsTop.high >= 0 };
  });
  return {
    field,
    tasks: taskList.length,
    systems,
    ...opts,
    method: systems[0]?.mean.method ?? '',
  };
}
