import type { ItemRecord } from '../benchmark/types.js';
import { UserError } from '../errors.js';

/** Per-item verdicts from one file (a file may hold several systems). */
export interface VerdictSource {
  file: string;
  records: readonly ItemRecord[];
}

/**
 * Verdicts aligned on one task list: `correct[s][t]` is 1 when system s got task t right.
 * Tasks are the union over all systems; a system without a verdict for a task counts it
 * WRONG (as `score` does for a missing prediction) and the count is kept in `absent` so
 * reports can say so. Refusing instead would make one incomplete run block the whole board.
 */
export interface VerdictMatrix {
  systems: string[];
  tasks: string[];
  correct: Uint8Array[];
  /** Per system: tasks with no verdict at all (counted wrong). */
  absent: number[];
  /** Per system: records marked `missing` (no prediction; counted wrong by the scorer). */
  missingPrediction: number[];
  /** Per system: records with `correct: null` (no decision, e.g. a judge abstained); counted wrong. */
  undecided: number[];
}

/** A canonical integer id: digits with no leading zero ("0", "7", "1034"; not "007"). */
const CANONICAL_INT = /^(0|[1-9]\d*)$/;

/**
 * Task order: canonical integer ids (Spider/BIRD positions) first, in numeric order; every other
 * id ("007", "q12", "bird-3") after them, in code-point order. A total order on distinct ids, so
 * the task list does not depend on which file came first. Leading-zero ids are not numbers here:
 * comparing "007" as 7 with "7" would make them tie, and comparing numbers with numbers but
 * strings with strings is no order at all (9 < 10 numerically, "10" < "1a" < "9" as strings).
 */
export function compareTaskIds(a: string, b: string): number {
  const na = CANONICAL_INT.test(a);
  const nb = CANONICAL_INT.test(b);
  if (na !== nb) return na ? -1 : 1;
  // Canonical integers of more digits are larger; compared as text, ids past 2^53 keep their order.
  if (na && a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Builds the aligned matrix; a second verdict for the same (system, task) is a user error naming both files. */
export function alignVerdicts(sources: readonly VerdictSource[]): VerdictMatrix {
  const bySystem = new Map<string, Map<string, { rec: ItemRecord; file: string }>>();
  for (const { file, records } of sources) {
    for (const rec of records) {
      let tasks = bySystem.get(rec.system);
      if (!tasks) bySystem.set(rec.system, (tasks = new Map()));
      const prev = tasks.get(rec.taskId);
      if (prev) {
        throw new UserError(
          `system "${rec.system}" has two verdicts for task ${rec.taskId} (${prev.file} and ${file}); ` +
            'pass each run once, or rename one system',
        );
      }
      tasks.set(rec.taskId, { rec, file });
    }
  }
  const systems = [...bySystem.keys()];
  const taskSet = new Set<string>();
  for (const tasks of bySystem.values()) for (const id of tasks.keys()) taskSet.add(id);
  const tasks = [...taskSet].sort(compareTaskIds);
  const m: VerdictMatrix = { systems, tasks, correct: [], absent: [], missingPrediction: [], undecided: [] };
  for (const system of systems) {
    const verdicts = bySystem.get(system)!;
    const row = new Uint8Array(tasks.length);
    let absent = 0;
    let missing = 0;
    let undecided = 0;
    tasks.forEach((id, t) => {
      const v = verdicts.get(id);
      if (!v) return void absent++;
      if (v.rec.missing === true) missing++;
      if (v.rec.correct === null) undecided++;
      row[t] = v.rec.correct === true ? 1 : 0;
    });
    m.correct.push(row);
    m.absent.push(absent);
    m.missingPrediction.push(missing);
    m.undecided.push(undecided);
  }
  return m;
}
