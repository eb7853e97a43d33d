import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { ExecutionEngine } from '../execution/engine.js';
import type { ExecRequest } from '../execution/types.js';
import { tieFromProbe, tieProbe } from './tie-probe.js';
import { isBlank, valueProbe } from './value-probe.js';
import { normalizeResult } from './normalize.js';
import { setOpProbe } from './setop-probe.js';
import type { AuditInputs, GoldProbe } from './types.js';

/**
 * Runs everything the audit needs through the execution engine in one batch — each gold
 * query, each agent's SQL, a tie probe per gold query with ORDER BY … LIMIT and a value
 * probe per gold query comparing a column with a string, and a rows-not-names probe per
 * INTERSECT/EXCEPT over names — so that
 * the engine's de-duplication and parallelism apply across all of it.
 */
export async function executeForAudit(
  bench: Benchmark,
  agents: readonly PredictionSet[],
  engine: ExecutionEngine,
  onProgress?: (done: number, total: number) => void,
): Promise<AuditInputs> {
  const tasks = bench.tasks;
  const reqs: ExecRequest[] = tasks.map((t) => ({ dbId: t.dbId, sql: t.goldSql }));
  const sqlOf = agents.map((a) => tasks.map((t) => a.byTask.get(t.id)?.sql));
  const slot = agents.map((_, j) =>
    tasks.map((t, i) => {
      const sql = sqlOf[j]![i];
      if (sql === undefined) return -1;
      reqs.push({ dbId: t.dbId, sql });
      return reqs.length - 1;
    }),
  );
  const probes = tasks.map((t) => tieProbe(t.goldSql));
  const probeSlot = probes.map((p, i) => {
    if (!p) return -1;
    reqs.push({ dbId: tasks[i]!.dbId, sql: p.sql });
    return reqs.length - 1;
  });
  const push = (sql: string | undefined, i: number): number => {
    if (sql === undefined) return -1;
    reqs.push({ dbId: tasks[i]!.dbId, sql });
    return reqs.length - 1;
  };
  const valueSlot = tasks.map((t, i) => push(valueProbe(t.goldSql), i));
  const caseSlot = tasks.map((t, i) => push(valueProbe(t.goldSql, { trim: false }), i));
  const setOpSlot = tasks.map((t, i) => push(setOpProbe(t.goldSql), i));
  const results = await engine.run(reqs, onProgress);
  const goldProbes: GoldProbe[] = probes.map((p, i) => {
    const probe: GoldProbe = {};
    const tie = p ? tieFromProbe(p, results[probeSlot[i]!]) : undefined;
    if (tie !== undefined) probe.tieAtLimit = tie;
    const relaxed = valueSlot[i]! >= 0 ? results[valueSlot[i]!] : undefined;
    if (relaxed?.status === 'ok' && isBlank(results[i])) probe.valueMismatch = !isBlank(relaxed);
    const cased = caseSlot[i]! >= 0 ? results[caseSlot[i]!] : undefined;
    if (cased?.status === 'ok' && isBlank(results[i])) probe.valueCase = !isBlank(cased);
    const byRows = setOpSlot[i]! >= 0 ? normalizeResult(results[setOpSlot[i]!]) : undefined;
    const gold = normalizeResult(results[i]);
    if (byRows?.ok && gold.ok) probe.setOpConflates = byRows.setSig !== gold.setSig;
    return probe;
  });
  return {
    tasks,
    gold: tasks.map((_, i) => results[i]!),
    agents: agents.map((a, j) => ({
      name: a.system,
      sql: sqlOf[j]!,
      results: slot[j]!.map((s) => (s < 0 ? undefined : results[s])),
    })),
    goldProbes,
  };
}
