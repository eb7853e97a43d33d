import type { Task } from '../benchmark/types.js';
import { hasRepeats, normalizeResult, sameResult, strictSubset, type NormResult } from './normalize.js';
import { sqlShape, type SqlShape } from './sql-shape.js';
import type { AuditInputs, Verdict } from './types.js';

/** Agents whose valid results are identical under the normalized comparison. */
export interface Cluster {
  members: number[];
  result: NormResult;
  agreesWithGold: boolean;
}

/** What every labeling function may look at for one task: never a label. */
export interface TaskContext {
  index: number;
  task: Task;
  gold: NormResult;
  goldShape: SqlShape;
  agentResults: NormResult[];
  /** Verdicts as evidence (verdictOf): a forgotten DISTINCT by the agent counts as no opinion. */
  verdicts: Verdict[];
  /** Verdicts under the plain normalized comparison, for baselines. */
  plainVerdicts: Verdict[];
  nValid: number;
  nAgree: number;
  nDisagree: number;
  /** Clusters of valid agents, largest first (ties: the one agreeing with the gold first). */
  clusters: Cluster[];
  /** The largest cluster that disagrees with the gold, when it has ≥ 2 members. */
  rival?: Cluster;
  /** SQL shape of the rival cluster's representative SQL (its members' most common text, representativeSql). */
  rivalShape?: SqlShape;
  rivalSql?: string;
  /** The gold's ORDER BY … LIMIT cuts through tied rows (undefined: not probed). */
  tieAtLimit?: boolean;
  /** The gold's blank answer comes from a value spelt differently in the data (undefined: not probed). */
  valueMismatch?: boolean;
  /** The gold's set operation over names merges different entities (undefined: not probed). */
  setOpConflates?: boolean;
  /** The gold's blank answer comes from its own mis-cased literal (undefined: not probed). */
  valueCase?: boolean;
  /** Share of valid agents agreeing with the gold, each weighted by its label-free reliability. */
  weightedAgreement: number;
}

/**
 * Builds every task's context. Agent weights for `weightedAgreement` come from how often an
 * agent sits in its task's plurality cluster: a label-free proxy of its skill.
 */
export function buildContexts(inputs: AuditInputs): TaskContext[] {
  const { tasks, gold, agents } = inputs;
  const base = tasks.map((task, i) => {
    const g = normalizeResult(gold[i]);
    const agentResults = agents.map((a) => normalizeResult(a.results[i]));
    const verdicts: Verdict[] = agentResults.map((r, j) => verdictOf(g, r, agents[j]!.sql[i]));
    const plainVerdicts: Verdict[] = agentResults.map((r) => plainVerdict(g, r));
    const bySig = new Map<string, Cluster>();
    agentResults.forEach((r, j) => {
      if (!r.ok) return;
      let c = bySig.get(r.sig);
      if (!c) {
        c = { members: [], result: r, agreesWithGold: sameResult(r, g) };
        bySig.set(r.sig, c);
      }
      c.members.push(j);
    });
    const clusters = [...bySig.values()].sort((a, b) => b.members.length - a.members.length || +b.agreesWithGold - +a.agreesWithGold);
    return { task, g, agentResults, verdicts, plainVerdicts, clusters };
  });
  const plurality = agents.map(() => ({ hit: 0, n: 0 }));
  for (const b of base) {
    const top = b.clusters[0];
    if (!top || top.members.length < 2) continue;
    b.verdicts.forEach((v, j) => {
      if (v === 'invalid') return;
      plurality[j]!.n++;
      if (top.members.includes(j)) plurality[j]!.hit++;
    });
  }
  const weight = plurality.map((p) => (p.hit + 1) / (p.n + 2));
  return base.map((b, index) => {
    const nValid = b.verdicts.filter((v) => v !== 'invalid').length;
    const nAgree = b.verdicts.filter((v) => v === 'agree').length;
    let wa = 0;
    let wt = 0;
    b.verdicts.forEach((v, j) => {
      if (v === 'invalid') return;
      wt += weight[j]!;
      if (v === 'agree') wa += weight[j]!;
    });
    const rival = b.clusters.find((c) => !c.agreesWithGold && c.members.length >= 2);
    const rivalSql = rival ? representativeSql(inputs, index, rival) : undefined;
    return {
      index,
      task: b.task,
      gold: b.g,
      goldShape: sqlShape(b.task.goldSql),
      agentResults: b.agentResults,
      verdicts: b.verdicts,
      plainVerdicts: b.plainVerdicts,
      nValid,
      nAgree,
      nDisagree: nValid - nAgree,
      clusters: b.clusters,
      ...(rival ? { rival } : {}),
      ...(rivalSql !== undefined ? { rivalSql, rivalShape: sqlShape(rivalSql) } : {}),
      weightedAgreement: wt > 0 ? wa / wt : 0.5,
      ...probeFacts(inputs, index),
    };
  });
}

/** The cluster's most common SQL text among its members (ties: the first member's), so the structure compared is typical. */
function representativeSql(inputs: AuditInputs, i: number, c: Cluster): string | undefined {
  const counts = new Map<string, number>();
  for (const j of c.members) {
    const s = inputs.agents[j]!.sql[i];
    if (s !== undefined) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  let best: string | undefined;
  let bestN = 0;
  for (const [s, n] of counts) if (n > bestN) [best, bestN] = [s, n];
  return best;
}

/** Agent j's verdict under the plain normalized comparison (what the baselines use). */
export function plainVerdict(g: NormResult, r: NormResult): Verdict {
  return !r.ok ? 'invalid' : sameResult(r, g) ? 'agree' : 'disagree';
}

/**
 * Agent j's verdict as evidence about the gold: the plain verdict, except that repeating
 * the gold's rows where the gold lists each once — a forgotten DISTINCT — is the agent's
 * own slip, not evidence against the gold, and counts as no opinion.
 */
export function verdictOf(g: NormResult, r: NormResult, agentSql?: string): Verdict {
  const v = plainVerdict(g, r);
  if (v !== 'disagree' || !g.ok) return v;
  if (r.setSig === g.setSig && !hasRepeats(g)) return 'invalid';
  // One of the gold's rows picked by LIMIT 1: the gold keeps every tied row, the agent an arbitrary one.
  if (r.nRows === 1 && agentSql !== undefined && sqlShape(agentSql).limit === 1 && strictSubset(r, g)) return 'invalid';
  return v;
}

function probeFacts(inputs: AuditInputs, i: number): Pick<TaskContext, 'tieAtLimit' | 'valueMismatch' | 'setOpConflates' | 'valueCase'> {
  const p = inputs.goldProbes?.[i] ?? {};
  return {
    ...(p.tieAtLimit !== undefined ? { tieAtLimit: p.tieAtLimit } : {}),
    ...(p.valueMismatch !== undefined ? { valueMismatch: p.valueMismatch } : {}),
    ...(p.setOpConflates !== undefined ? { setOpConflates: p.setOpConflates } : {}),
    ...(p.valueCase !== undefined ? { valueCase: p.valueCase } : {}),
  };
}
