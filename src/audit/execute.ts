import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { ExecutionEngine } from '../execution/engine.js';
import type { ExecRequest, ExecResult } from '../execution/types.js';
import { tieFromProbe, tieProbe } from './tie-probe.js';
import { isBlank, valueProbe } from './value-probe.js';
import { normalizeResult } from './normalize.js';
import { setOpProbe } from './setop-probe.js';
import type { AuditInputs, GoldProbe } from './types.js';

/**
 * Runs everything the audit needs through the execution engine in one batch — each gold
 * query, each agent's SQL, a tie probe per gold query with ORDER BY … LIMIT, two value
 * probes (case and spaces; case only) per gold query comparing a column with a string, and a
 * rows-not-names probe per INTERSECT/EXCEPT over names — so that the engine's de-duplication
 * and parallelism apply across all of it.
 */
export async function executeForAudit(
  bench: Benchmark,
  agents: readonly PredictionSet[],
  engine: ExecutionEngine,
  onProgress?: (done: number, total: number) => void,
): Promise<AuditInputs> {
  const tasks = bench.tasks;
  const reqs: ExecRequest[] = tasks.map((t) => ({ dbId: t.dbId, sql: t.goldSql }));
  /** Queues task i's query; its slot in the results, -1 when there is none. */
  const push = (sql: string | undefined, i: number): number => {
    if (sql === undefined) return -1;
    reqs.push({ dbId: tasks[i]!.dbId, sql });
    return reqs.length - 1;
  };
  const sqlOf = agents.map((a) => tasks.map((t) => a.byTask.get(t.id)?.sql));
  const slot = sqlOf.map((sqls) => sqls.map((sql, i) => push(sql, i)));
  const probes = tasks.map((t) => tieProbe(t.goldSql));
  const probeSlot = probes.map((p, i) => push(p?.sql, i));
  const valueSlot = tasks.map((t, i) => push(valueProbe(t.goldSql), i));
  const caseSlot = tasks.map((t, i) => push(valueProbe(t.goldSql, { trim: false }), i));
  const setOpSlot = tasks.map((t, i) => push(setOpProbe(t.goldSql), i));
  const results = await engine.run(reqs, onProgress);
  const at = (s: number): ExecResult | undefined => (s < 0 ? undefined : results[s]);
  const goldProbes: GoldProbe[] = probes.map((p, i) => {
    const probe: GoldProbe = {};
    const tie = p ? tieFromProbe(p, at(probeSlot[i]!)) : undefined;
    if (tie !== undefined) probe.tieAtLimit = tie;
    const goldBlank = isBlank(results[i]);
    const relaxed = at(valueSlot[i]!);
    if (relaxed?.status === 'ok' && goldBlank) probe.valueMismatch = !isBlank(relaxed);
    const cased = at(caseSlot[i]!);
    if (cased?.status === 'ok' && goldBlank) probe.valueCase = !isBlank(cased);
    const byRows = normalizeResult(at(setOpSlot[i]!));
    const gold = normalizeResult(results[i]);
    if (byRows.ok && gold.ok) probe.setOpConflates = byRows.setSig !== gold.setSig;
    return probe;
  });
  return {
    tasks,
    gold: tasks.map((_, i) => results[i]!),
    agents: agents.map((a, j) => ({
      name: a.system,
      sql: sqlOf[j]!,
      results: slot[j]!.map(at),
    })),
    goldProbes,
  };
}
