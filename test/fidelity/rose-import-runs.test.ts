import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxLineWidth, runCli } from '../helpers/cli.js';
import { SHARED } from './helpers/shared-data.js';
import { importRoseDir, subsetFromPath } from '../../src/benchmark/rose-import.js';
import { readItems } from '../../src/benchmark/items.js';

/** `import rose` on ROSE's recorded runs (test/import/rose-import.test.ts covers hand-made ones). */
const ROSE = join(SHARED, 'rose', 'output');
const bench = (s: string) => join(ROSE, 'benchmarking', s, `o3-${s}-eval`);

describe('import rose (CLI, real ROSE runs)', () => {
  it('reproduces ROSE Table 3: GPT-5 on BIRD mini-dev 88.93%', async () => {
    const r = await runCli(['import', 'rose', bench('gpt-5'), '--system', 'gpt-5', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.system).toBe('gpt-5');
    expect(s.n).toBe(488);
    expect(s.accuracy.toFixed(4)).toBe('0.8893');
    expect(s.correct).toBe(434);
    expect(s.goldX).toBeGreaterThan(0);
    expect(s.ambQ).toBeGreaterThan(0);
    // The sibling EX-gpt-5-eval run gives EX for the same predictions.
    expect(s.ex.accuracy.toFixed(4)).toBe('0.5574');
  });

  it('rsl-gpt4o: 81.92%, and --out writes records that readItems accepts', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'rose-out-')), 'rsl.jsonl');
    const r = await runCli(['import', 'rose', bench('rsl-gpt4o'), '--system', 'rsl-gpt4o', '--json', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).accuracy.toFixed(4)).toBe('0.8192');
    const recs = readItems(out);
    expect(recs).toHaveLength(459);
    const first = recs[0]!;
    for (const k of ['system', 'taskId', 'ex', 'correct', 'route', 'goldX', 'ambQ']) expect(first).toHaveProperty(k);
    // One item carries neither stage (an early run's execution failure): a 0 without calls.
    const err = recs.find((x) => x.taskId === '944')!;
    expect(err.route).toBe('pred-error');
    expect(err.correct).toBe(false);
    expect(err.calls).toBe(0);
  });

  it('prints a table by default', async () => {
    const r = await runCli(['import', 'rose', bench('gpt-5'), '--system', 'gpt-5']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('88.93%');
    expect(maxLineWidth(r.stdout)).toBeLessThanOrEqual(100);
  });
});

describe('importRoseDir (core) on ROSE runs', () => {
  it('takes the subset from a rose-vec-<name> path segment and keeps the last duplicated answer', () => {
    // o3 ROSE on ROSE-VEC-Spider: prover_output and refuter_output repeat 12 question ids each.
    const dir = join(ROSE, 'rose-vec', 'rose-vec-spider', 'o3', 'ROSE');
    const res = importRoseDir(dir, { system: 'o3-ROSE' });
    expect(res.summary.subset).toBe('rose-vec-spider');
    expect(res.records).toHaveLength(263);
    expect(res.records.every((r) => r.subset === 'rose-vec-spider')).toBe(true);
    expect(res.notes.some((n) => n.includes('duplicated'))).toBe(true);
    // Every recorded stage verdict agrees with the last answer in the stage files.
    for (const r of res.records) {
      if (r.route === 'prover-refuter' || r.route === 'prover-reject') expect(typeof r.proverReason).toBe('string');
      if (r.refuterOverturn !== undefined) expect(typeof r.refuterReason).toBe('string');
      expect(r.correct).toBe(r.route === 'match' || r.route === 'prover-refuter' ? !r.refuterOverturn : false);
    }
    expect(subsetFromPath('/x/rose-vec/rose-vec-bird/o3/ROSE')).toBe('rose-vec-bird');
    expect(subsetFromPath('/x/benchmarking/gpt-5/o3-gpt-5-eval')).toBeUndefined();
  });

  it('imports score-only runs (FLEX, llmsolver, EX) with their score and no diagnostics', () => {
    for (const m of ['FLEX', 'llmsolver']) {
      const res = importRoseDir(join(ROSE, 'rose-vec', 'rose-vec-bird', 'o3', m), { system: m });
      expect(res.summary.kind).toBe('score');
      expect(res.records).toHaveLength(322);
      expect(res.summary.goldX).toBeNull();
      expect(res.records.every((r) => r.route === 'score' && r.goldX === null)).toBe(true);
    }
    const flex = importRoseDir(join(ROSE, 'rose-vec', 'rose-vec-bird', 'o3', 'FLEX'), { system: 'f' });
    expect(flex.summary.correct).toBe(146);
    const ex = importRoseDir(join(ROSE, 'benchmarking', 'gpt-5', 'EX-gpt-5-eval'), { system: 'ex', subset: 'mini-dev' });
    expect(ex.summary.accuracy.toFixed(4)).toBe('0.5574');
    expect(ex.summary.subset).toBe('mini-dev');
  });

  it('reads AmbQ and GoldX from the Refuter, including combined ambiguity strings', () => {
    const res = importRoseDir(join(ROSE, 'rose-vec', 'rose-vec-bird', 'qwen3-235b', 'ROSE'), { system: 'q' });
    expect(res.summary.ambSchema).toBeGreaterThanOrEqual(14); // 13 "ambiguous schema" + 1 combined
    expect(res.summary.ambQ).toBeGreaterThanOrEqual(33);
  });
});
