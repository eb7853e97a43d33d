import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maxLineWidth, ROOT, runCli } from '../helpers/cli.js';
import { SHARED } from './helpers/shared-data.js';

const ROSE = join(SHARED, 'rose');
const BIRD = join(ROSE, 'data', 'annotations', 'rose-vec-bird.json');
const SPIDER = join(ROSE, 'data', 'annotations', 'rose-vec-spider.json');
const run = (subset: string, backbone: string, method: string) => join(ROSE, 'output', 'rose-vec', `rose-vec-${subset}`, backbone, method);
const both = (backbone: string, method: string) => `${run('bird', backbone, method)},${run('spider', backbone, method)}`;

const ARGS = [
  'validate',
  '--set', BIRD,
  '--set', SPIDER,
  '--judge', `o3-ROSE=${both('o3', 'ROSE')}`,
  '--judge', `o3-ROSE-thread-4=${run('bird', 'o3', 'ROSE-thread-4')}`,
  '--judge', `o3-ROSE-thread-8=${run('bird', 'o3', 'ROSE-thread-8')}`,
  '--judge', `gemini-2.5-pro-ROSE=${both('gemini-2.5-pro', 'ROSE')}`,
  '--judge', `deepseek-r1-ROSE=${both('deepseek-r1', 'ROSE')}`,
  '--judge', `EX=${both('decisive', 'EX')}`,
  '--ensemble', 'unanimity:o3-ROSE,gemini-2.5-pro-ROSE,deepseek-r1-ROSE',
  '--ensemble', 'majority:o3-ROSE,gemini-2.5-pro-ROSE,deepseek-r1-ROSE',
  '--repeats', 'o3-ROSE,o3-ROSE-thread-4,o3-ROSE-thread-8',
  '--baseline', 'EX',
  '--iterations', '300',
];

const r4 = (x: number) => x.toFixed(4);

describe('validate on ROSE-VEC (recorded ROSE runs imported on the fly)', () => {
  it("prints the rows docs/commands/validate.md shows for its ROSE-VEC command", async () => {
    const page = readFileSync(join(ROOT, 'docs', 'commands', 'validate.md'), 'utf8');
    const block = page.slice(page.indexOf('## ROSE-VEC'));
    const shown = block.slice(block.indexOf('```text\n') + 8, block.indexOf('```', block.indexOf('```text\n') + 8)).trim().split('\n');
    expect(shown.length).toBeGreaterThan(2);
    const r = await runCli([
      'validate', '--set', BIRD, '--set', SPIDER,
      '--judge', `o3=${both('o3', 'ROSE')}`,
      '--judge', `gemini-2.5-pro=${both('gemini-2.5-pro', 'ROSE')}`,
      '--judge', `deepseek-r1=${both('deepseek-r1', 'ROSE')}`,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const printed = new Set(r.stdout.split('\n').map((l) => l.trimEnd()));
    for (const line of shown) expect(printed.has(line.trimEnd()), `${line}\n--- output:\n${r.stdout}`).toBe(true);
  });

  it('reproduces ROSE Table 1 (o3 over 585 items), the repeat-run spread and the unanimity ensemble', async () => {
    const r = await runCli([...ARGS, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    const judge = (n: string) => out.judges.find((j: { name: string }) => j.name === n);
    const o3 = judge('o3-ROSE').subsets;
    expect(o3.all.n).toBe(585);
    expect(r4(o3.all.kappa)).toBe('0.8043');
    expect(r4(o3.all.accuracy)).toBe('0.9179');
    expect(r4(o3.all.mcc)).toBe('0.8104');
    expect(r4(o3.all.f1)).toBe('0.9416');
    expect(o3.all.ci.kappa[0]).toBeLessThan(0.8043);
    expect(o3.all.ci.kappa[1]).toBeGreaterThan(0.8043);
    expect(o3['rose-vec-bird'].n).toBe(322);
    expect(o3['rose-vec-spider'].n).toBe(263);
    expect(r4(judge('EX').subsets.all.kappa)).toBe('0.2556');

    // Repeat runs on BIRD: κ 80.7, 79.2, 86.5.
    expect(r4(judge('o3-ROSE').subsets['rose-vec-bird'].kappa)).toBe('0.8068');
    expect(r4(judge('o3-ROSE-thread-4').subsets['rose-vec-bird'].kappa)).toBe('0.7915');
    expect(r4(judge('o3-ROSE-thread-8').subsets['rose-vec-bird'].kappa)).toBe('0.8646');
    expect(judge('o3-ROSE-thread-4').subsets.all.coverage).toBeCloseTo(322 / 585, 10);
    const spread = out.repeats[0].subsets['rose-vec-bird'];
    expect(spread.n).toBe(322);
    expect(r4(spread.kappa.min)).toBe('0.7915');
    expect(r4(spread.kappa.max)).toBe('0.8646');
    expect(spread.unstable).toBeGreaterThan(0);

    // Unanimity routing of o3, Gemini 2.5 Pro and DeepSeek-R1.
    const u = out.ensembles.find((e: { kind: string }) => e.kind === 'unanimity');
    expect(u.subsets.all.items).toBe(585);
    expect(u.subsets.all.n).toBe(469);
    expect(r4(u.autoCoverage)).toBe('0.8017');
    expect(r4(u.subsets.all.kappa)).toBe('0.8779');
    expect(u.review).toHaveLength(116);
    expect(u.review.every((x: { subset: string }) => x.subset.startsWith('rose-vec-'))).toBe(true);

    // Pairs and the upgrade rule.
    const pair = out.pairs.find((p: { a: string; b: string }) => p.a === 'o3-ROSE' && p.b === 'EX').subsets.all;
    expect(pair.n).toBe(585);
    expect(pair.kappaDiff).toBeCloseTo(0.8043 - 0.2556, 3);
    expect(pair.mcnemar.pValue).toBeLessThan(1e-6);
    expect(pair.sampleSizeDelta010).toBeGreaterThan(0);
    const up = out.baseline.candidates.find((c: { candidate: string }) => c.candidate === 'o3-ROSE');
    expect(up.beatsAll).toBe(true);
    expect(up.probability).toBe(1);

    // GoldX against the annotators' GOLD FALSE tags (BIRD only).
    const gx = judge('o3-ROSE').goldX;
    expect(gx.all.n).toBe(322);
    expect(gx.all.humanTagged).toBe(70);
    expect(judge('EX').goldX).toBeNull();
    // ROSE Table 4 prints o3's GoldX precision 22/35 and AmbQ 5/16 without intervals; Wilson's, written out.
    const wilsonByHand = (k: number, n: number): [number, number] => {
      const z = 1.959963984540054;
      const p = k / n;
      const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const h = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
      return [c - h, c + h];
    };
    const aq = judge('o3-ROSE').ambQ;
    for (const [d, k, m] of [[gx.all, 22, 35], [aq.all, 5, 16]] as const) {
      expect([d.agreed, d.judgeFlagged]).toEqual([k, m]);
      const [lo, hi] = wilsonByHand(k, m);
      expect(d.precisionInterval.low).toBeCloseTo(lo, 10);
      expect(d.precisionInterval.high).toBeCloseTo(hi, 10);
    }
  });

  it('prints the report and writes HTML; the same seed gives the same intervals', async () => {
    const html = join(mkdtempSync(join(tmpdir(), 'validate-')), 'v.html');
    const a = await runCli([...ARGS, '--html', html, '--seed', '7']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain('Repeat-run spread: o3-ROSE, o3-ROSE-thread-4, o3-ROSE-thread-8');
    expect(a.stdout).toContain('unanimity(o3-ROSE,gemini-2.5-pro-ROSE,deepseek-r1-ROSE)');
    // κ is a coefficient (o3-ROSE on ROSE-VEC: 0.8043), not a percentage.
    expect(a.stdout).toMatch(/│ 0\.804 [│[]/);
    expect(a.stdout).not.toContain('80.4%');
    expect(a.stdout).toContain('Holm-adjusted over all');
    expect(a.stdout).toContain('For human review');
    // Eleven columns of intervals fitted into the 100 columns of a non-terminal stdout.
    expect(maxLineWidth(a.stdout)).toBeLessThanOrEqual(100);
    expect(existsSync(html)).toBe(true);
    expect(readFileSync(html, 'utf8')).toContain('Repeat-run spread');
    const b = await runCli([...ARGS, '--seed', '7']);
    expect(b.stdout).toBe(a.stdout);
  });
});
