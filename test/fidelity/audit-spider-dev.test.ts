import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SHARED, SHARED_SPIDER as SPIDER } from './helpers/shared-data.js';

/**
 * The done-when check of issue 6 on real data: Spider dev, the published systems as agents
 * (all of SOURCES.md's Spider dev predictions except the value-less rat-sql-gap and lgesql
 * and the taoyds example), scored on SALUS's hand-labelled random sample of 200 tasks.
 */
const P = join(SPIDER, 'predictions');
const AGENTS: [string, string][] = [
  ['c3', 'c3/predicted_sql.txt'],
  ['chatgpt-chang', 'chatgpt-zero-shot-chang2023/pred.sql'],
  ['chatgpt-liu', 'chatgpt-zero-shot-liu2023/predict.json'],
  ['codes-1b', 'codes/pred_sqls-codes-1b-spider.txt'],
  ['codes-3b', 'codes/pred_sqls-codes-3b-spider.txt'],
  ['codes-7b', 'codes/pred_sqls-codes-7b-spider.txt'],
  ['codes-15b', 'codes/pred_sqls-codes-15b-spider.txt'],
  ['codex-few-dinsql', 'codex-few-shot-dinsql/CodeX_few-shot.csv'],
  ['codex-zero-chang', 'codex-zero-shot-chang2023/pred.sql'],
  ['dail-sql', 'dail-sql/DAIL-SQL+GPT-4.txt'],
  ['dail-sql-sc', 'dail-sql/DAIL-SQL+GPT-4+self-consistency.txt'],
  ['dea-sql', 'dea-sql/dea-sql.txt'],
  ['din-sql', 'din-sql/DIN-SQL.csv'],
  ['din-sql-codex', 'din-sql-codex/DIN-SQL.csv'],
  ['dts-deepseek', 'dts-sql-deepseek-7b/Predicted.txt'],
  ['dts-mistral', 'dts-sql-mistral-7b/Predicted.txt'],
  ['gpt4-few', 'gpt4-few-shot-dinsql/GPT4_few_shot.csv'],
  ['gpt4-zero', 'gpt4-zero-shot-dinsql/GPT4_zero_shot.csv'],
  ['graphix', 'graphix-t5-picard/graphix_result.txt'],
  ['mac-sql', 'mac-sql-dea-rerun/mac-sql.txt'],
  ['rasat', 'rasat-picard/RASAT+PICARD.txt'],
  ['resdsql', 'resdsql/RESDSQL_3B.sql'],
  ['resdsql-natsql', 'resdsql/RESDSQL_NatSQL_3B.sql'],
  ['structgpt', 'structgpt/output_wo_icl_v1.jsonl'],
  ['supersql', 'supersql/SuperSQL.sql'],
  ['ta-sql', 'ta-sql/spider_predict_dev.sql'],
];

interface M {
  tp: number;
  fp: number;
  fn: number;
  f1: number;
  mcc: number;
  precision: number;
  recall: number;
}

describe('sqlboard audit on Spider dev with the published systems as agents', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-audit-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  /** The audit of Spider dev by the published agents against SALUS's 200 labels (one store for both runs), plus `extra`. */
  const auditArgs = (...extra: string[]): string[] => [
    'audit',
    '--questions', join(SPIDER, 'dev.json'),
    '--db-root', join(SPIDER, 'database'),
    ...AGENTS.flatMap(([name, file]) => ['--agent', `${name}=${join(P, file)}`]),
    '--labels', join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv'),
    '--store', join(tmp, 'store.db'),
    '--seed', '1',
    '--repair', 'restore-select',
    '--json',
    ...extra,
  ];

  it("scores the audit beside every baseline under both comparisons on SALUS's labelled sample, and SALUS's flags the same way", async () => {
    const r = await runCli(auditArgs(
      '--compare-flags', join(SHARED, 'salus', 'predictions', 'frontier_spider.csv'),
      '--out', join(tmp, 'out'),
      '--label-error-rate', '0.05',
    ));
    // Nothing on stderr but the written files, the opt-in repairs of the two JSON agents and C3's TAB.
    expect(r.stderr.replace(/sqlboard: wrote .*\n/g, '')).toBe(
      'sqlboard: c3: 1 lines have a TAB inside the SQL; as in the official readers only the text before the first TAB is the prediction (--repair keep-tabs keeps the rest)\n' +
        'sqlboard: chatgpt-liu: repair restore-select: "SELECT " prepended to 1034 predictions: 1034 read as a SELECT list without its keyword (a "SELECT " left out?), e.g. task 0: "COUNT(*) FROM singer"\n' +
        // RESDSQL's 11 "sql placeholder" lines: prepended too, and still errors.
        'sqlboard: resdsql: repair restore-select: "SELECT " prepended to 11 predictions: 11 start with prose, e.g. task 129: "sql placeholder"\n' +
        'sqlboard: structgpt: repair restore-select: "SELECT " prepended to 1034 predictions: 1034 read as a SELECT list without its keyword (a "SELECT " left out?), e.g. task 0: "COUNT(*) FROM singer;"\n',
    );
    expect(r.code).toBe(0);
    type B = { majority: M; bestSingle: M & { agent: string }; bestSingleByEx: M & { agent: string } };
    type D = { f1: { estimate: number; low: number; high: number }; mcc: { estimate: number; low: number; high: number }; shareBetterF1: number };
    type Q = { auc: number; precisionAtK: number };
    const j = JSON.parse(r.stdout) as {
      tasks: number;
      flagged: number;
      labelled: { n: number; errors: number };
      metrics: M;
      baselines: { audit: B; ex: B; labelModel: M };
      compare: M;
      versus: { audit: Record<keyof B, D>; ex: Record<keyof B, D>; labelModel: D; compare: D };
      ranking: { k: number; audit: Q; labelModel: Q; majority: { audit: Q; ex: Q }; versus: Record<'labelModel' | 'majorityAudit' | 'majorityEx', { auc: { estimate: number } }> };
      calibrated: {
        estimate: number;
        ciLow: number;
        ciHigh: number;
        sampleShare: number;
        labelFree: number;
        roganGladen: { ciLow: number; ciHigh: number };
        labelNoise: { estimate: number; ciLow: number; ciHigh: number; labelErrorRate: number };
        conditions: string;
      };
      decisionPlane: unknown;
      cpuMs: number;
    };
    expect(j.tasks).toBe(1034);
    expect(j.labelled).toEqual({ n: 200, errors: 60, missing: 0 });
    // SALUS's own flags, scored by the same code: its published F1 0.875 and MCC 0.820.
    expect(j.compare.f1).toBeCloseTo(0.875, 3);
    expect(j.compare.mcc).toBeCloseTo(0.82, 2);
    // The default flags are the label model's (the decision plane is opt-in).
    expect(j.decisionPlane).toBeNull();
    expect(j.metrics).toEqual(j.baselines.labelModel);
    // Majority vote differs between the two comparisons: which one a claim uses matters.
    expect(j.baselines.audit.majority.tp).not.toBe(j.baselines.ex.majority.tp);
    // The paired bootstrap's estimates are the differences of the reported metrics; its
    // hindsight pick on the full sample is the reported best single agent.
    for (const c of ['audit', 'ex'] as const) {
      for (const k of ['majority', 'bestSingle', 'bestSingleByEx'] as const) {
        expect(j.versus[c][k].f1.estimate).toBeCloseTo(j.metrics.f1 - j.baselines[c][k].f1, 9);
        expect(j.versus[c][k].mcc.estimate).toBeCloseTo(j.metrics.mcc - j.baselines[c][k].mcc, 9);
        expect(j.versus[c][k].f1.low).toBeLessThanOrEqual(j.versus[c][k].f1.high);
      }
    }
    expect(j.versus.compare.f1.estimate).toBeCloseTo(j.metrics.f1 - j.compare.f1, 9);
    // SALUS's flags are better than the audit beyond what 200 tasks leave in doubt.
    expect(j.versus.compare.f1.high).toBeLessThan(0);
    // The ranking: k is the labelled errors; the Δ estimates are differences of the reported AUCs.
    expect(j.ranking.k).toBe(60);
    expect(j.ranking.versus.labelModel.auc.estimate).toBeCloseTo(j.ranking.audit.auc - j.ranking.labelModel.auc, 9);
    expect(j.ranking.versus.majorityEx.auc.estimate).toBeCloseTo(j.ranking.audit.auc - j.ranking.majority.ex.auc, 9);
    // The calibrated error rate brackets SALUS's ≈27% for Spider dev.
    expect(j.calibrated.ciLow).toBeLessThan(0.27);
    expect(j.calibrated.ciHigh).toBeGreaterThan(0.27);
    // It is the labelled sample's 30% corrected by the label model over all tasks: near it, and narrower than
    // both the sample's own binomial interval (±6.4 points) and Rogan–Gladen's on the flags.
    expect(j.calibrated.sampleShare).toBe(0.3);
    expect(Math.abs(j.calibrated.estimate - 0.3)).toBeLessThan(0.03);
    expect(j.calibrated.ciHigh - j.calibrated.ciLow).toBeLessThan(2 * 0.064);
    expect(j.calibrated.ciHigh - j.calibrated.ciLow).toBeLessThan(j.calibrated.roganGladen.ciHigh - j.calibrated.roganGladen.ciLow);
    // Labels wrong with probability 0.05: a labelled share estimates 0.05 + θ·0.9, so θ = (ê − 0.05)/0.9.
    expect(j.calibrated.labelNoise.labelErrorRate).toBe(0.05);
    expect(j.calibrated.labelNoise.estimate).toBeCloseTo((j.calibrated.estimate - 0.05) / 0.9, 12);
    expect(j.calibrated.labelNoise.ciLow).toBeCloseTo((j.calibrated.ciLow - 0.05) / 0.9, 12);
    expect(j.calibrated.conditions).toContain('simple random sample');
    // The SALUS-format flags file (plus the review score) feeds `leaderboard --flags`; review.csv orders every task.
    const csv = readFileSync(join(tmp, 'out', 'flags.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('task_id,predicted_label,score');
    expect(csv).toHaveLength(1035);
    expect(csv.filter((l) => l.split(',')[1] === '0')).toHaveLength(j.flagged);
    const review = readFileSync(join(tmp, 'out', 'review.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(review).toHaveLength(1034);
    expect(review[0]![0]).toBe('1');
    // No mass tie: the largest group of tasks sharing a score is small.
    const ties = new Map<string, number>();
    for (const row of review) ties.set(row[2]!, (ties.get(row[2]!) ?? 0) + 1);
    expect(Math.max(...ties.values())).toBeLessThan(60);
    // Reported for the record (not asserted): every figure on both comparisons.
    const fm = (m: M): string => `${m.f1.toFixed(3)}/${m.mcc.toFixed(3)}`;
    process.stderr.write(
      `audit ${fm(j.metrics)} | label model ${fm(j.baselines.labelModel)} | ` +
        (['audit', 'ex'] as const).map((c) => `${c}: majority ${fm(j.baselines[c].majority)}, by EX ${j.baselines[c].bestSingleByEx.agent} ${fm(j.baselines[c].bestSingleByEx)}, hindsight ${j.baselines[c].bestSingle.agent} ${fm(j.baselines[c].bestSingle)}`).join(' | ') +
        ` | SALUS ${fm(j.compare)} | ranking AUC audit ${j.ranking.audit.auc.toFixed(3)}, LM ${j.ranking.labelModel.auc.toFixed(3)}, majority ${j.ranking.majority.audit.auc.toFixed(3)}/${j.ranking.majority.ex.auc.toFixed(3)} | max tie ${Math.max(...ties.values())} | CPU ${j.cpuMs.toFixed(0)} ms\n`,
    );
  });

  it('--decision-plane: chooses by agreement with held-out agents, and keeps the label model unless a plane leads beyond chance', async () => {
    const r = await runCli(auditArgs('--decision-plane'));
    expect(r.code).toBe(0);
    type S = { candidate: string; f1: number; mcc: number };
    const j = JSON.parse(r.stdout) as {
      metrics: M;
      baselines: { labelModel: M };
      decisionPlane: { config: unknown; selection: S[]; halves: string[][]; lead: { estimate: number; low: number; high: number; candidate: string } };
    };
    const p = j.decisionPlane;
    expect(p.halves.flat()).toHaveLength(AGENTS.length);
    // Not circular: the old CV scored every candidate F1 0.97–1.00 against pseudo-labels from its own votes;
    // against a held-out half of the agents no candidate comes near that.
    expect(Math.max(...p.selection.map((s) => s.f1))).toBeLessThan(0.9);
    expect(p.config === null).toBe(!(p.lead.low > 0));
    // The flags are then at least as good as the label model's on SALUS's labels.
    expect(j.metrics.mcc).toBeGreaterThanOrEqual(j.baselines.labelModel.mcc - 1e-12);
    process.stderr.write(`decision plane selection: ${p.selection.map((s) => `${s.candidate} ${s.f1.toFixed(3)}/${s.mcc.toFixed(3)}`).join('; ')}; lead ${p.lead.candidate} ${p.lead.estimate.toFixed(3)} [${p.lead.low.toFixed(3)}, ${p.lead.high.toFixed(3)}]; chosen ${JSON.stringify(p.config)}\n`);
  });
});
