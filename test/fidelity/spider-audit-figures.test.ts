import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SHARED, runCli } from '../helpers/cli.js';
import { bundledAuditArgs } from '../helpers/bundled-audit.js';

type M = { precision: number; recall: number; f1: number; mcc: number };
type Iv = { estimate: number; low: number; high: number };

describe("data/spider/audit/README.md's figures on SALUS's 200 labels are what the code makes", () => {
  it('every evaluation figure quoted there comes out of a fresh run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-figures-'));
    const r = await runCli([...bundledAuditArgs(join(dir, 'store.db')), '--labels', join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as {
      metrics: M;
      baselines: Record<'audit' | 'ex', { majority: M; bestSingle: M & { agent: string } }>;
      versus: Record<'audit' | 'ex', { majority: { f1: Iv; mcc: Iv } }>;
      ranking: { audit: { auc: number }; majority: { ex: { auc: number } }; versus: { majorityEx: { auc: Iv } } };
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
  }, 300_000);
});
