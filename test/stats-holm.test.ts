import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../src/stats/holm.js';
import { itemsLeaderboard } from '../src/stats/leaderboard.js';
import { readItems } from '../src/benchmark/items.js';
import { itemsReport } from '../src/report/leaderboard-items.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe("Holm's step-down adjustment", () => {
  it("matches R's p.adjust(method = 'holm')", () => {
    // p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    const q = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((x, i) => expect(q[i]).toBeCloseTo(x, 12));
    expect(holmAdjust([0.5, 0.9])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('the pair table calls a pair significant by the Holm-adjusted p over all pairs; the rank-1 set uses the comparisons with #1 only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-holm-'));
    let lines = '';
    // Six nested systems, each wrong on 7 more tasks than the one above: neighbours differ by b = 0, c = 7
    // (raw exact McNemar p = 2 · 0.5^7 = 0.016), which Holm over 15 pairs no longer calls significant.
    for (let s = 0; s < 6; s++) for (let t = 0; t < 1000; t++) lines += JSON.stringify({ system: `s${s}`, taskId: String(t), correct: t >= 7 * s }) + '\n';
    writeFileSync(join(dir, 'i.jsonl'), lines);
    const lb = itemsLeaderboard({ sources: [{ file: 'i.jsonl', records: readItems(join(dir, 'i.jsonl')) }], iterations: 50 });
    const q = holmAdjust(lb.pairs.map((p) => p.mcnemar.pValue));
    lb.pairs.forEach((p, k) => {
      expect(p.pHolm).toBeCloseTo(q[k]!, 12);
      expect(p.significant).toBe(q[k]! < 0.05);
    });
    // Raw and corrected disagree somewhere, or the test would not show the correction.
    expect(lb.pairs.some((p) => p.mcnemar.pValue < 0.05 && !p.significant)).toBe(true);
    // s1 is 7 tasks below s0 (b = 7, c = 0): raw p = 2·0.5^7 = 1/64. Over the 5 comparisons with #1, Holm
    // multiplies the smallest p (s5: 35 discordant, 2·0.5^35) by 5, ..., and s1's p (the largest) by 1:
    // max(1/64, the others' adjusted) = 1/64 < 5%, so s1 is significantly below #1 — over all 15 pairs it is not.
    const s1 = lb.systems.find((s) => s.system === 's1')!;
    expect(s1.vsTop!.pHolm).toBeCloseTo(2 * 0.5 ** 7, 12);
    expect(s1.vsTop!.notSignificantlyBelow).toBe(false);
    expect(lb.pairs.find((p) => p.a === 's0' && p.b === 's1')!.significant).toBe(false);
    expect(lb.notSignificantlyBelowTop).toEqual([]);
    const text = itemsReport(lb, { files: ['i.jsonl'] }).sections[0]!.notes!.join(' ');
    expect(text).toContain('Not significantly below rank 1 (s0) — exact McNemar against it, Holm-adjusted over the 5 comparisons with #1, adjusted p ≥ 5%: 0 of 5.');
    expect(text).not.toMatch(/tied/i);
  });

  it('the rank-1 set need not follow accuracy, and the report says why with the discordant counts', () => {
    // #1 "top" right on 0..899. "near" is 10 below #1 with no other disagreement (b = 10, c = 0: p = 2^-9,
    // significant); "far" is 12 below #1 but differs from it on 60 tasks (b = 36, c = 24: p ≈ 0.155, not).
    const recs: { system: string; taskId: string; correct: boolean }[] = [];
    for (let t = 0; t < 1000; t++) {
      recs.push({ system: 'top', taskId: String(t), correct: t < 900 });
      recs.push({ system: 'near', taskId: String(t), correct: t < 890 });
      recs.push({ system: 'far', taskId: String(t), correct: t < 864 || (t >= 900 && t < 924) });
    }
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: recs }], iterations: 50 });
    // Exact two-sided binomial by hand: P(X ≤ k) for X ~ Bin(m, ½).
    const cdf = (k: number, m: number): number => {
      let s = 0;
      let c = 1;
      for (let i = 0; i <= k; i++) {
        s += c;
        c = (c * (m - i)) / (i + 1);
      }
      return s / 2 ** m;
    };
    const pNear = Math.min(1, 2 * cdf(0, 10));
    const pFar = Math.min(1, 2 * cdf(24, 60));
    const holm = holmAdjust([pNear, pFar]);
    const near = lb.systems.find((s) => s.system === 'near')!;
    const far = lb.systems.find((s) => s.system === 'far')!;
    expect([near.correct, far.correct]).toEqual([890, 888]);
    expect(near.vsTop).toMatchObject({ b: 10, c: 0 });
    expect(far.vsTop).toMatchObject({ b: 36, c: 24 });
    expect(near.vsTop!.pHolm).toBeCloseTo(holm[0]!, 12);
    expect(far.vsTop!.pHolm).toBeCloseTo(holm[1]!, 12);
    expect(lb.notSignificantlyBelowTop).toEqual(['far']);
    const text = itemsReport(lb, { files: ['x'] }).sections[0]!.notes!.join(' ');
    expect(text).toContain('Here near (890 correct) is significantly below #1 (10 tasks only #1 got right, 0 only near) while far (888 correct) is not (36 vs 24)');
  });
});

describe('tied systems are numbered alike in the table and the HTML plots', () => {
  it('competition ranks "1, 1, 3" in the table, the forest plot and the matrix', async () => {
    const { renderHtml } = await import('../src/report/html.js');
    const recs: { system: string; taskId: string; correct: boolean }[] = [];
    for (let t = 0; t < 200; t++) {
      recs.push({ system: 'twin-a', taskId: String(t), correct: t < 150 });
      recs.push({ system: 'twin-b', taskId: String(t), correct: t < 150 });
      recs.push({ system: 'low', taskId: String(t), correct: t < 100 });
    }
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: recs }], iterations: 20 });
    const report = itemsReport(lb, { files: ['x'] });
    expect(report.sections[0]!.table!.rows.map((r) => r.rank)).toEqual([1, 1, 3]);
    const html = renderHtml(report);
    for (const label of ['1. twin-a', '1. twin-b', '3. low']) expect(html).toContain(`>${label}</text>`);
    expect(html).not.toContain('>2. twin-b</text>');
    // The matrix's column numbers are the same ranks.
    expect(html).toMatch(/text-anchor="middle">3<\/text>/);
  });
});

describe('the bootstrap share of resamples in which #1 ranks above', () => {
  it('equals the share computed from per-task differences on the same seeded resamples, and is labelled as a share', async () => {
    const { pairedBootstrapDiff } = await import('../src/stats/bootstrap.js');
    const rows: Record<string, number[]> = { top: [], twin: [], near: [], far: [] };
    for (let t = 0; t < 300; t++) {
      rows.top!.push(t < 240 ? 1 : 0);
      rows.twin!.push(t < 240 ? 1 : 0); // identical to #1: #1 is never strictly above
      rows.near!.push(t < 236 || (t >= 240 && t < 242) ? 1 : 0); // 2 below, 6 discordant
      rows.far!.push(t < 150 ? 1 : 0); // 90 below: above in every resample
    }
    const recs = Object.entries(rows).flatMap(([system, r]) => r.map((c, t) => ({ system, taskId: String(t), correct: c === 1 })));
    const opts = { iterations: 400, seed: 7, confidence: 0.95 };
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: recs }], ...opts });
    expect(lb.systems[0]!.system).toBe('top');
    for (const s of lb.systems.slice(1)) {
      // Second formula: the mean of per-task differences over the same resamples (pairedBootstrapDiff), share > 0.
      const second = pairedBootstrapDiff(Float64Array.from(rows.top!), Float64Array.from(rows[s.system]!), opts).pGreater;
      expect(s.vsTop!.topAboveShare).toBeCloseTo(second, 12);
    }
    expect(lb.systems.find((s) => s.system === 'twin')!.vsTop!.topAboveShare).toBe(0);
    expect(lb.systems.find((s) => s.system === 'far')!.vsTop!.topAboveShare).toBe(1);
    const near = lb.systems.find((s) => s.system === 'near')!.vsTop!.topAboveShare;
    expect(near).toBeGreaterThan(0.3);
    expect(near).toBeLessThan(1);
    const report = itemsReport(lb, { files: ['x'] });
    expect(report.sections[0]!.table!.columns.map((c) => c.header)).toContain('Resamples with #1 above');
    expect(JSON.stringify(report)).not.toMatch(/P\(#1 better\)|P\(Δ > 0\)/);
  });
});
