import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadValidationSets } from '../../src/benchmark/validation-set.js';
import { loadJudge, parseJudgeSpec } from '../../src/validate/sources.js';
import { validate } from '../../src/validate/validate.js';
import { combine, parseEnsembleSpec } from '../../src/validate/ensembles.js';
import { kappaDiffSampleSize } from '../../src/stats/kappa-sample-size.js';
import { InputFileError, UserError } from '../../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'validate-core-'));
function file(name: string, lines: object[]): string {
  const f = join(dir, name);
  writeFileSync(f, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return f;
}

// Two subsets that share ids 1..4 with different human labels.
const setA = file('alpha.jsonl', [
  { id: 1, label: true, tags: ['gold_false'] },
  { id: 2, label: true, tags: [] },
  { id: 3, label: false, tags: ['gold_false'] },
  { id: 4, label: false, tags: [] },
]);
const setB = file('beta.jsonl', [
  { id: 1, label: false },
  { id: 2, label: false },
  { id: 3, label: true },
  { id: 4, label: true },
]);
const rec = (subset: string | undefined, taskId: string, correct: boolean | null, extra: object = {}) => ({
  system: 'vec',
  taskId,
  ...(subset ? { subset } : {}),
  correct,
  ...extra,
});

describe('validate core', () => {
  const sets = loadValidationSets([setA, setB]);

  it('joins verdicts on (subset, id): repeated ids in two subsets stay apart', () => {
    // A judge that is perfect on both subsets: a join on id alone would cross the labels.
    const f = file('perfect.jsonl', [
      ...['1', '2', '3', '4'].map((id, i) => rec('alpha', id, i < 2, { goldX: i === 0 || i === 2 })),
      ...['1', '2', '3', '4'].map((id, i) => rec('beta', id, i >= 2)),
    ]);
    const r = validate({ sets, judges: [loadJudge('p', [f], sets)], iterations: 50 });
    const j = r.judges[0]!;
    expect(j.subsets.all!.accuracy).toBe(1);
    expect(j.subsets.all!.kappa).toBe(1);
    expect(j.subsets.alpha!.n).toBe(4);
    expect(j.subsets.beta!.n).toBe(4);
    expect(j.subsets.all!.coverage).toBe(1);
    // GoldX against the human tags, only where the set has tags (alpha).
    expect(j.goldX!.all).toMatchObject({ n: 4, humanTagged: 2, judgeFlagged: 2, agreed: 2, precision: 1, recall: 1 });
    expect(j.goldX!.beta).toBeUndefined();
  });

  it('records without subset join the one set holding the id; an id in two sets is an error', () => {
    const single = loadValidationSets([setA]);
    const f = file('nosubset.jsonl', [rec(undefined, '1', true), rec(undefined, '3', true), rec(undefined, '99', true)]);
    const j = loadJudge('n', [f], single);
    expect(j.byKey.size).toBe(2);
    expect(j.notes.join(' ')).toMatch(/1 records .* not items of the loaded sets/);
    expect(() => loadJudge('n', [f], sets)).toThrow(InputFileError);
    expect(() => loadJudge('n', [f], sets)).toThrow(/no "subset" and the id is in alpha and beta/);
    // PATH#SUBSET names the subset for records that carry none.
    const named = loadJudge('n', [`${f}#beta`], sets);
    expect([...named.byKey.keys()].map((k) => k.replace('\u0000', '/')).sort()).toEqual(['beta/1', 'beta/3']);
    expect(() => loadJudge('n', [`${f}#gamma`], sets)).toThrow(/names subset gamma, which no --set has/);
  });

  it('missing and unscored verdicts lower coverage, not accuracy', () => {
    const f = file('partial.jsonl', [
      rec('alpha', '1', true),
      rec('alpha', '2', true),
      rec('alpha', '3', null),
      rec('beta', '3', true, { unscored: 'invalid output' }),
      rec('beta', '4', true),
    ]);
    const r = validate({ sets, judges: [loadJudge('x', [f], sets)], iterations: 50 });
    const all = r.judges[0]!.subsets.all!;
    expect(all.n).toBe(3);
    expect(all.items).toBe(8);
    expect(all.coverage).toBeCloseTo(3 / 8, 12);
    expect(all.accuracy).toBe(1);
    expect(r.judges[0]!.subsets.beta!.coverage).toBe(0.25);
  });

  it('metrics, over-flag, pairs, McNemar and the sample size', () => {
    const yes = file('yes.jsonl', [...['1', '2', '3', '4'].map((id) => rec('alpha', id, true)), ...['1', '2', '3', '4'].map((id) => rec('beta', id, true))]);
    const half = file('half.jsonl', [
      ...['1', '2', '3', '4'].map((id, i) => rec('alpha', id, i === 0 || i === 2, { calls: 2, costUsd: 0.004, latencyMs: 100 * (i + 1) })),
      ...['1', '2', '3', '4'].map((id, i) => rec('beta', id, i >= 2, { calls: 1 })),
    ]);
    const r = validate({ sets, judges: [loadJudge('yes', [yes], sets), loadJudge('half', [half], sets)], iterations: 200 });
    const y = r.judges[0]!.subsets.all!;
    expect(y.accuracy).toBe(0.5);
    expect(y.recall).toBe(1);
    expect(y.overFlagRate).toBe(0);
    expect(y.kappa).toBe(0); // a judge that accepts everything agrees only by chance
    const h = r.judges[1]!.subsets.alpha!;
    expect(h.confusion).toEqual({ tp: 1, fp: 1, fn: 1, tn: 1 });
    expect(h.overFlagRate).toBe(0.5);
    expect(h.kappa).toBe(0);
    expect(r.judges[1]!.cost).toMatchObject({ callsPerItem: 1.5, costRecorded: 4, latencyMsMedian: 250 });
    expect(r.judges[1]!.cost.costPer1000Items).toBeCloseTo(4, 10);
    const pair = r.pairs[0]!;
    expect([pair.a, pair.b]).toEqual(['yes', 'half']);
    // yes is right on the 4 human-correct items; half on 6 of 8: b = yes right & half wrong.
    expect(pair.subsets.all!.mcnemar).toMatchObject({ b: 1, c: 3 });
    expect(pair.subsets.all!.mcnemar.pValue).toBeCloseTo(0.625, 10);
    // κ(yes) = 0, κ(half) = 0.5 over all 8 items; 8 items are far too few to detect a Δκ of 0.10.
    expect(pair.subsets.all!).toMatchObject({ kappaA: 0, kappaB: 0.5, kappaDiff: -0.5 });
    expect(pair.subsets.all!.sampleSizeDelta010).toBeGreaterThan(8);
  });

  it('kappaDiffSampleSize follows n·(SE·(z.975+z.8)/Δ)²', () => {
    const s = kappaDiffSampleSize({ n: 322, se: 0.032 });
    expect(s.n).toBe(Math.ceil(322 * ((0.032 * (1.959963984540054 + 0.8416212335729143)) / 0.1) ** 2));
    expect(kappaDiffSampleSize({ n: 10, se: NaN }).n).toBeNull();
    expect(kappaDiffSampleSize({ n: 100, se: 0.05, delta: 0.2 }).n).toBe(Math.ceil(100 * ((0.05 * 2.801585218) / 0.2) ** 2));
  });

  it('ensembles: majority ties reject, unanimity routes disagreements to review, and/or', () => {
    const cols: (boolean | null)[][] = [
      [true, true, false, true, null],
      [true, false, false, null, null],
    ];
    expect(combine('majority', cols)).toEqual({ verdicts: [true, false, false, true, null], ties: 1 });
    expect(combine('unanimity', cols).verdicts).toEqual([true, null, false, null, null]);
    expect(combine('and', cols).verdicts).toEqual([true, false, false, null, null]);
    expect(combine('or', cols).verdicts).toEqual([true, true, false, true, null]);
    const three = [[true], [false], [true]];
    expect(combine('majority', three)).toEqual({ verdicts: [true], ties: 0 });
    expect(parseEnsembleSpec('unanimity:a,b,c')).toEqual({ kind: 'unanimity', members: ['a', 'b', 'c'], name: 'unanimity(a,b,c)' });
    expect(() => parseEnsembleSpec('vote:a,b')).toThrow(UserError);
    expect(() => parseEnsembleSpec('and:a')).toThrow(/at least two/);
  });

  it('a unanimity ensemble reports auto-coverage, κ on decided items and the review list', () => {
    const a = file('ja.jsonl', [...['1', '2', '3', '4'].map((id, i) => rec('alpha', id, i < 2)), ...['1', '2', '3', '4'].map((id, i) => rec('beta', id, i >= 2))]);
    const b = file('jb.jsonl', [...['1', '2', '3', '4'].map((id, i) => rec('alpha', id, i < 3)), ...['1', '2', '3'].map((id, i) => rec('beta', id, i >= 2))]);
    const judges = [loadJudge('a', [a], sets), loadJudge('b', [b], sets)];
    const r = validate({ sets, judges, ensembles: [parseEnsembleSpec('unanimity:a,b'), parseEnsembleSpec('majority:a,b')], baseline: 'b', iterations: 100 });
    const u = r.ensembles[0]!;
    expect(u.autoCoverage).toBe(6 / 8);
    expect(u.subsets.all!.kappa).toBe(1);
    expect(u.review!.map((x) => `${x.subset}/${x.taskId}`)).toEqual(['alpha/3', 'beta/4']);
    expect(u.review![1]!.votes).toEqual({ a: true, b: null });
    const m = r.ensembles[1]!;
    expect(m.ties).toBe(1); // alpha/3: a rejects, b accepts → tie → reject
    expect(m.subsets.all!.n).toBe(8);
    // Upgrade rule: a beats b (perfect vs one error on the items both cover).
    const cand = r.baseline!.candidates.find((c) => c.candidate === 'a')!;
    expect(cand.beatsAll).toBe(true);
    expect(cand.probability).toBeGreaterThan(0);
    expect(cand.probability).toBeLessThanOrEqual(1);
    expect(() => validate({ sets, judges, baseline: 'zzz', iterations: 10 })).toThrow(/--baseline zzz/);
    expect(() => validate({ sets, judges, ensembles: [parseEnsembleSpec('or:a,q')], iterations: 10 })).toThrow(/no judge named q/);
  });

  it('parses --judge specs', () => {
    expect(parseJudgeSpec('o3-ROSE=a,b')).toEqual({ name: 'o3-ROSE', sources: ['a', 'b'] });
    expect(() => parseJudgeSpec('nofile')).toThrow(UserError);
    expect(() => parseJudgeSpec('=x')).toThrow(UserError);
  });
});

describe('validate: Holm over judge pairs × subsets, the Δκ bootstrap p, coefficients and the under-coverage warning', () => {
  it('adjusts McNemar and Δκ p-values over every pair × subset; the Δκ p agrees with the percentile CI', async () => {
    const { holmAdjust } = await import('../../src/stats/holm.js');
    const { validateReport } = await import('../../src/report/validate-report.js');
    // 240 items in two subsets; three judges of different quality, from a fixed pattern.
    const items = Array.from({ length: 240 }, (_, i) => ({ id: i % 120, subset: i < 120 ? 's1' : 's2', label: i % 3 !== 0 }));
    const sets = loadValidationSets([
      file('s1.jsonl', items.filter((it) => it.subset === 's1').map((it) => ({ id: it.id, label: it.label }))),
      file('s2.jsonl', items.filter((it) => it.subset === 's2').map((it) => ({ id: it.id, label: it.label }))),
    ]);
    const judgeFile = (name: string, wrong: (i: number) => boolean): string =>
      file(`j-${name}.jsonl`, items.map((it, i) => ({ system: name, taskId: String(it.id), subset: it.subset, correct: wrong(i) ? !it.label : it.label })));
    const judges = [
      loadJudge('good', [judgeFile('good', (i) => i % 17 === 0)], sets),
      loadJudge('fair', [judgeFile('fair', (i) => i % 6 === 1)], sets),
      loadJudge('poor', [judgeFile('poor', (i) => i % 3 === 2)], sets),
    ];
    const r = validate({ sets, judges, iterations: 400, seed: 3 });
    const cells = r.pairs.flatMap((p) => Object.values(p.subsets));
    expect(cells.length).toBe(3 * 3); // 3 pairs × (all, s1, s2)
    const q = holmAdjust(cells.map((c) => c.mcnemar.pValue));
    cells.forEach((c, k) => expect(c.mcnemar.pHolm).toBeCloseTo(q[k]!, 12));
    const qk = holmAdjust(cells.map((c) => c.kappaDiffP));
    cells.forEach((c, k) => expect(c.kappaDiffPHolm).toBeCloseTo(qk[k]!, 12));
    for (const c of cells) {
      // Test inversion: the 95% percentile interval excludes 0 exactly when the bootstrap p is below 5%
      // (up to the quantiles' interpolation, so only clear cases are checked).
      const excludes = c.kappaDiffCi[0] > 0 || c.kappaDiffCi[1] < 0;
      if (c.kappaDiffP < 0.04) expect(excludes).toBe(true);
      if (c.kappaDiffP > 0.06) expect(excludes).toBe(false);
    }
    const text = JSON.stringify(validateReport(r));
    expect(text).toContain('Holm-adjusted over all 9 judge pairs × subsets');
  });

  it('prints κ and MCC as coefficients and warns where the percentile bootstrap under-covers', async () => {
    const { validateReport } = await import('../../src/report/validate-report.js');
    const { renderTerminal } = await import('../../src/report/terminal.js');
    const { percentileBootstrapCaution } = await import('../../src/stats/bootstrap-caution.js');
    expect(percentileBootstrapCaution(60, 0.5)).toBe('n = 60 < 100');
    expect(percentileBootstrapCaution(585, 0.96)).toBe('estimate 0.960 ≥ 0.9 (near the ceiling)');
    expect(percentileBootstrapCaution(585, 0.8)).toBeNull();
    const sets = loadValidationSets([setA, setB]);
    const yes = file('yes2.jsonl', [...['1', '2', '3', '4'].map((id) => rec('alpha', id, true)), ...['1', '2', '3', '4'].map((id) => rec('beta', id, true))]);
    const r = validate({ sets, judges: [loadJudge('yes', [yes], sets)], iterations: 100 });
    const report = validateReport(r);
    const notes = report.sections[0]!.notes!.join(' ');
    expect(notes).toContain('Warning: the percentile bootstrap covers less than its nominal level');
    expect(notes).toContain('yes/all (n = 8 < 100)');
    const cols = report.sections[0]!.table!.columns;
    expect(cols.find((c) => c.key === 'kappa')!.format).toBe('fixed');
    expect(cols.find((c) => c.key === 'mcc')!.format).toBe('fixed');
    expect(renderTerminal(report, 200)).not.toMatch(/κ[^\n]*%/);
  });
});
