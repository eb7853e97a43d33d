import type { Benchmark } from '../benchmark/types.js';
import type { AuditReport } from '../audit/pipeline.js';
import type { AuditInputs, Verdict } from '../audit/types.js';
import { taskDifficulty } from '../execution/ex-run.js';
import { previewOf } from '../execution/result-preview.js';
import { PreviewTable, type ExplorerData, type ExplorerItem, type ExplorerTask } from './explorer-model.js';

const VERDICT: Record<Verdict, 1 | 0 | null> = { agree: 1, disagree: 0, invalid: null };

/**
 * `audit --html`: each agent's agreement with the gold (the audit's comparison; plain EX beside it),
 * every task's flag, review score and rank, ordered as the review queue (rank 1 first).
 */
export function auditExplorer(bench: Benchmark, inputs: AuditInputs, report: AuditReport): ExplorerData {
  const table = new PreviewTable();
  const tasks: ExplorerTask[] = inputs.tasks.map((t, ti) => {
    const f = report.flags[ti]!;
    const g = inputs.gold[ti]!;
    return {
      id: t.id,
      db: t.dbId,
      d: taskDifficulty(bench, t),
      q: t.question,
      ...(t.evidence ? { ev: t.evidence } : {}),
      gold: t.goldSql,
      gp: table.add(previewOf(g))!,
      ...(g.status !== 'ok' ? { ge: g.error ?? g.status } : {}),
      fl: f.flagged,
      rs: f.score,
      rk: f.rank,
      pw: f.probability,
      ...(f.correction ? { fix: `${f.correction.sql}\n-- ${f.correction.agent}, agreed by ${f.correction.clusterSize} agents` } : {}),
      s: inputs.agents.map((a, ai): ExplorerItem => {
        const sql = a.sql[ti];
        const r = a.results[ti];
        return {
          ...(sql !== undefined ? { sql } : { m: 1 as const }),
          v: VERDICT[report.verdicts.audit[ti]![ai]!],
          ...(r && r.status !== 'ok' ? { e: r.error ?? r.status } : {}),
          ...(r ? { p: table.add(previewOf(r))! } : {}),
          ex: report.verdicts.ex[ti]![ai] === 'agree' ? 1 : 0,
        };
      }),
    };
  });
  return { kind: 'audit', verdictLabel: "agrees with the gold (the audit's comparison)", systems: report.agents, previews: table.list, tasks, order: 'review' };
}
