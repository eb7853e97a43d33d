import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { SHARED } from './helpers/shared-data.js';
import { bundledAuditArgs } from '../helpers/bundled-audit.js';

type M = { precision: number; recall: number; f1: number; mcc: number };
type Iv = { estimate: number; low: number; high: number };

describe("data/spider/audit/README.md's figures on SALUS's 200 labels are what the code makes", () => {
  it('every evaluation figure quoted there comes out of a fresh run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-figures-'));
    const r = await runCli([
      ...bundledAuditArgs(join(dir, 'store.db')),
      '--labels', join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv'),
      '--compare-flags', join(SHARED, 'salus', 'predictions', 'frontier_spider.csv'),
      '--out', join(dir, 'out'),
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    type Q = { auc: number; precisionAtK: number };
    type B = { majority: M; bestSingle: M & { agent: string }; bestSingleByEx: M & { agent: string } };
    const j = JSON.parse(r.stdout) as {
      metrics: M;
      compare: M;
      baselines: Record<'audit' | 'ex', B>;
      versus: Record<'audit' | 'ex', Record<'majority' | 'bestSingle', { f1: Iv; mcc: Iv }>>;
      ranking: { audit: Q; labelModel: Q; majority: { audit: Q; ex: Q }; versus: Record<'labelModel' | 'majorityAudit' | 'majorityEx', { auc: Iv }> };
      calibrated: { estimate: number; ciLow: number; ciHigh: number; sampleShare: number; labelFree: number; roganGladen: { estimate: number; ciLow: number; ciHigh: number } };
    };
    const readme = readFileSync(join(ROOT, 'data', 'spider', 'audit', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const f = (x: number): string => x.toFixed(3);
    const s = (x: number): string => (x < 0 ? `−${f(-x)}` : `+${f(x)}`);
    const ci = (d: Iv): string => `${s(d.estimate)} [${f(d.low).replace('-', '−')}, ${f(d.high).replace('-', '−')}]`;
    const { audit: a, ex: e } = j.baselines;
    const expected = [
      `precision ${f(j.metrics.precision)}, recall ${f(j.metrics.recall)}, F1 ${f(j.metrics.f1)}, MCC ${f(j.metrics.mcc)}`,
      `majority vote F1 ${f(a.majority.f1)} / ${f(e.majority.f1)}, MCC ${f(a.majority.mcc)} / ${f(e.majority.mcc)}`,
      `F1 ${f(a.bestSingle.f1)} (${a.bestSingle.agent}) / ${f(e.bestSingle.f1)} (${e.bestSingle.agent}), MCC ${f(a.bestSingle.mcc)} / ${f(e.bestSingle.mcc)}`,
      `ΔF1 ${ci(j.versus.audit.majority.f1)}`,
      `ΔF1 ${ci(j.versus.ex.majority.f1)}, ΔMCC ${ci(j.versus.ex.majority.mcc)}`,
      `AUC is ${f(j.ranking.audit.auc)} against ${f(j.ranking.majority.ex.auc)}`,
      `(Δ ${ci(j.ranking.versus.majorityEx.auc)})`,
    ];
    for (const x of expected) expect(readme).toContain(x);

    // docs/commands/audit.md's "Measured quality" and its ties on the bundled run.
    const page = readFileSync(join(ROOT, 'docs', 'commands', 'audit.md'), 'utf8').replace(/\s+/g, ' ');
    const fm = (m: M): string => `${f(m.f1)} / ${f(m.mcc)}`;
    const pc = (x: number): string => `${(x * 100).toFixed(1)}%`;
    const { ranking: q, calibrated: c } = j;
    const quoted = [
      `| sqlboard audit (= label model alone) | ${fm(j.metrics)} | ${fm(j.metrics)} |`,
      `| majority vote of the agents | ${fm(a.majority)} | ${fm(e.majority)} |`,
      `| best single agent in hindsight | ${a.bestSingle.agent} ${fm(a.bestSingle)} | ${e.bestSingle.agent} ${fm(e.bestSingle)} |`,
      `| best single agent by EX (no labels) | ${a.bestSingleByEx.agent} ${fm(a.bestSingleByEx)} | ${e.bestSingleByEx.agent} ${fm(e.bestSingleByEx)} |`,
      `| SALUS's own flags (LLM agents) | ${fm(j.compare)} | |`,
      `ΔF1 ${ci(j.versus.audit.majority.f1)} and ΔMCC ${ci(j.versus.audit.majority.mcc)} under the audit's comparison, ΔF1 ${ci(j.versus.ex.majority.f1)} and ΔMCC ${ci(j.versus.ex.majority.mcc)} under plain EX`,
      `(ΔMCC ${ci(j.versus.audit.bestSingle.mcc)} and ${ci(j.versus.ex.bestSingle.mcc).replace(/^\+/, '')})`,
      `the review score's AUC is ${f(q.audit.auc)} (precision among the top 60: ${f(q.audit.precisionAtK)}), the label model's posterior ${f(q.labelModel.auc)} (the review score minus it: ΔAUC ${ci(q.versus.labelModel.auc)})`,
      `the share of agents that fail ${f(q.majority.audit.auc)} under the audit's comparison (ΔAUC ${ci(q.versus.majorityAudit.auc)}) and ${f(q.majority.ex.auc)} under plain EX (precision among the top 60: ${f(q.majority.ex.precisionAtK)}; ΔAUC ${ci(q.versus.majorityEx.auc)})`,
      `${pc(c.estimate)} [${pc(c.ciLow)}, ${pc(c.ciHigh)}] (the labelled sample alone: ${pc(c.sampleShare)}; label-free, the label model's prior: ${pc(c.labelFree)}; Rogan–Gladen on the flags: ${pc(c.roganGladen.estimate)} [${pc(c.roganGladen.ciLow)}, ${pc(c.roganGladen.ciHigh)}])`,
    ];
    for (const x of quoted) expect(page).toContain(x);
    // Where the page says which intervals exclude 0, and which way the label model's posterior falls.
    expect(j.versus.audit.majority.f1.low).toBeGreaterThan(0);
    for (const d of [j.versus.audit.majority.mcc, j.versus.ex.majority.f1, j.versus.ex.majority.mcc, q.versus.majorityEx.auc]) expect(d.low * d.high).toBeLessThan(0);
    expect(j.versus.ex.majority.mcc.estimate).toBeLessThan(0);
    expect(q.labelModel.auc).toBeLessThan(q.majority.ex.auc);

    const tasks = readFileSync(join(dir, 'out', 'tasks.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { score: number; labelModelProbability: number });
    const ties = (key: (t: (typeof tasks)[number]) => number): { largest: number; share: number } => {
      const n = new Map<number, number>();
      for (const t of tasks) n.set(key(t), (n.get(key(t)) ?? 0) + 1);
      return { largest: Math.max(...n.values()), share: tasks.filter((t) => n.get(key(t))! > 1).length / tasks.length };
    };
    const byScore = ties((t) => t.score);
    const byPosterior = ties((t) => t.labelModelProbability);
    expect(page).toContain(
      `the largest group of tasks sharing a score has ${byScore.largest} tasks and ${Math.round(byScore.share * 100)}% of tasks share theirs with another; ` +
        `the label model's posterior puts ${byPosterior.largest} tasks in one tie and ${Math.round(byPosterior.share * 100)}% in some tie.`,
    );
  });
});
