import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { ExecutionEngine } from './engine.js';
import type { ResultPreview } from './result-preview.js';
import type { ExecRequest } from './types.js';

/** Result previews of every task's gold and every system's prediction; undefined where nothing ran. */
export interface RunPreviews {
  gold: (ResultPreview | undefined)[];
  /** [system][task], systems in the order given. */
  pred: (ResultPreview | undefined)[][];
}

/**
 * What each query returned, as run: under the spider comparator the text that ran is the rewritten
 * one (DISTINCT dropped, `value` → 1; ex-run.ts comparatorSql), so that is what is looked up. `sqlFor` maps a task's SQL to
 * the text that ran (undefined: never executed). Reads the engine's memory and run store only.
 */
export async function runPreviews(
  engine: ExecutionEngine,
  bench: Benchmark,
  systems: readonly PredictionSet[],
  sqlFor: (sql: string, isPrediction: boolean) => string | undefined = (sql) => sql,
): Promise<RunPreviews> {
  const reqs: (ExecRequest | undefined)[] = bench.tasks.map((t) => {
    const sql = sqlFor(t.goldSql, false);
    return sql === undefined ? undefined : { dbId: t.dbId, sql };
  });
  for (const s of systems) {
    for (const t of bench.tasks) {
      const p = s.byTask.get(t.id);
      const sql = p ? sqlFor(p.sql, true) : undefined;
      reqs.push(sql === undefined ? undefined : { dbId: t.dbId, sql });
    }
  }
  const asked = reqs.flatMap((r, i) => (r ? [[i, r] as const] : []));
  const got = await engine.previews(asked.map(([, r]) => r));
  const all = new Array<ResultPreview | undefined>(reqs.length);
  asked.forEach(([i], k) => (all[i] = got[k]));
  const n = bench.tasks.length;
  return { gold: all.slice(0, n), pred: systems.map((_, si) => all.slice(n * (si + 1), n * (si + 2))) };
}

