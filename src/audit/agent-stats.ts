import type { TaskContext } from './context.js';

export interface AgentStat {
  name: string;
  /** Share of tasks where its SQL executed. */
  validRate: number;
  /** Of its valid results, the share that differ from the gold's. */
  goldDisagreement: number;
  /** Mean over tasks of the reliability the decision plane gives its verdicts (0.5 without --decision-plane: no model). */
  meanReliability: number;
}

export interface AgentStatistics {
  agents: AgentStat[];
  /** pairwise[a][b]: share of tasks (both valid) where a and b return different results. */
  pairwise: number[][];
  /** Share of tasks where the gold and every agent with a valid result agree (≥ 1 valid). */
  allAgreeRate: number;
}

export function agentStatistics(names: readonly string[], contexts: readonly TaskContext[], reliability: readonly (readonly number[])[]): AgentStatistics {
  const agents = names.map((name, j) => {
    let valid = 0;
    let dis = 0;
    let rel = 0;
    contexts.forEach((c, i) => {
      rel += reliability[i]?.[j] ?? 0;
      // The plain comparison: what the agent's SQL did, before the audit explains differences away.
      const v = c.plainVerdicts[j];
      if (v === 'invalid') return;
      valid++;
      if (v === 'disagree') dis++;
    });
    const n = contexts.length || 1;
    return { name, validRate: valid / n, goldDisagreement: valid ? dis / valid : NaN, meanReliability: rel / n };
  });
  const pairwise = names.map((_, a) =>
    names.map((__, b) => {
      let both = 0;
      let diff = 0;
      for (const c of contexts) {
        const ra = c.agentResults[a]!;
        const rb = c.agentResults[b]!;
        if (!ra.ok || !rb.ok) continue;
        both++;
        if (ra.sig !== rb.sig) diff++;
      }
      return both ? diff / both : NaN;
    }),
  );
  const withAny = contexts.filter((c) => c.plainVerdicts.some((v) => v !== 'invalid'));
  const allAgreeRate = withAny.length ? withAny.filter((c) => !c.plainVerdicts.includes('disagree')).length / withAny.length : NaN;
  return { agents, pairwise, allAgreeRate };
}
