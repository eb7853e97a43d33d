import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { board } from './helpers/board.js';
import { runCli } from './helpers/cli.js';

function tinyBoard(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-board-'));
  const file = join(dir, 'board.csv');
  writeFileSync(
    file,
    [
      'system,dev,test',
      'A,70,80',
      'B,72,78',
      'C,65,75',
      'D,60,75', // ties C on test
      'Humans,,92.9', // no dev: skipped
      '"B",50%,40%', // duplicate name: becomes "B (2)"
    ].join('\n') + '\n',
  );
  return file;
}

describe('leaderboard --board on a tiny CSV (hand computations)', () => {
  it('tau-b with a tie in test, expected tau, ranks with ties, skipped and renamed rows', async () => {
    // Sorted by test: A 80, B 78, C 75, D 75. Pairs (dev, test): A-B discordant; A-C, A-D, B-C, B-D
    // concordant; C-D tied in test. tau-b = (4 − 1)/√((6 − 0)(6 − 1)) = 3/√30.
    // σ_gap = 2√25/100 = 0.1; dev gaps .02 .05 .10 .07 .12 .05 → 2Φ(g/σ) − 1 averaged:
    const phi = { 0.2: 0.5792597, 0.5: 0.6914625, 1.0: 0.8413447, 0.7: 0.7580363, 1.2: 0.8849303 };
    const expected = [phi[0.2], phi[0.5], phi[1.0], phi[0.7], phi[1.2], phi[0.5]].reduce((s, p) => s + 2 * p - 1, 0) / 6;
    const j = await board(['--board', tinyBoard(), '--n', '100', '--flawed', '25', '--top', '4']);
    expect(j.tauB).toBeCloseTo(3 / Math.sqrt(30), 10);
    expect(j.expectedTau).toBeCloseTo(expected, 5);
    expect(j.systems.map((s) => [s.name, s.rank, s.devRank])).toEqual([
      ['A', 1, 2],
      ['B', 2, 1],
      ['C', 3, 3],
      ['D', 3, 4],
    ]);
    expect(j.skipped).toEqual([{ name: 'Humans', line: 6, reason: 'no dev score' }]);
    expect(j.renamed).toEqual([{ from: 'B', to: 'B (2)', line: 7 }]);
    expect(j.available).toBe(5);
    // g* = 1.645 × 0.1: nothing separable among four systems 5 points apart
    expect(j.threshold).toBeCloseTo(0.16449, 4);
    expect(j.withinNoiseBoundOfTop).toEqual(['B', 'C', 'D']);
    expect(j.exceedingPairs).toBe(0);
  });

  it('with a small error count, only gaps above g* separate', async () => {
    // σ_gap = 2/100, g* = 0.0329: A-C and A-D (5 points) exceed it; A-B (2) and B-C, B-D (3) do not.
    const j = await board(['--board', tinyBoard(), '--n', '100', '--flawed', '1', '--top', '4']);
    expect(j.threshold).toBeCloseTo(0.0329, 4);
    expect(j.withinNoiseBoundOfTop).toEqual(['B']);
    expect(j.pairs.filter((p) => p.exceedsThreshold).map((p) => `${p.a}>${p.b}`)).toEqual(['A>C', 'A>D']);
    const ab = j.pairs.find((p) => p.a === 'A' && p.b === 'B')!;
    expect(ab.gap).toBeCloseTo(0.02, 12);
    // Φ(gap/σ_gap) is not a probability that A is better: no longer printed or in --json.
    expect(ab.outperformProbability).toBeUndefined();
    const text = await runCli(['leaderboard', '--board', tinyBoard(), '--n', '100', '--flawed', '1', '--top', '4', '--wide']);
    expect(text.stdout).not.toMatch(/P\(#1 better\)|P\(A better\)/);
  });

  it('dev-gap view by hand: the dev leader, who is within g* of it on dev, dev pairs beyond g*; the split is named', async () => {
    // g* = 3.29 points. Dev: A 70, B 72, C 65, D 60 → dev leader B; A is 2 below (within), C 7, D 12.
    // Dev pairs beyond 3.29: A–C 5, A–D 10, B–C 7, B–D 12, C–D 5 (A–B 2 is not) = 5.
    const j = await board(['--board', tinyBoard(), '--n', '100', '--flawed', '1', '--top', '4']);
    expect(j.noiseSplit).toBe('dev');
    expect(j.dev).toEqual({ top: 'B', withinNoiseBoundOfTop: ['A'], exceedingPairs: 5 });
    const text = await runCli(['leaderboard', '--board', tinyBoard(), '--n', '100', '--flawed', '1', '--top', '4', '--noise-split', 'test']);
    const flat = text.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('g* comes from the test split (N = 100, e = 1, as given; --noise-split names the split)');
    expect(flat).toContain('annotation noise only, not sampling');
    expect(flat).toContain('On dev gaps (g* carried over from test): 1 of the 3 systems below the dev leader B are within g* of it on dev');
  });

  it('one system: no pairs, tau undefined (null in JSON)', async () => {
    const j = await board(['--board', tinyBoard(), '--n', '100', '--flawed', '25', '--top', '1']);
    expect(j.systems).toHaveLength(1);
    expect(j.pairs).toEqual([]);
    expect(j.withinNoiseBoundOfTop).toEqual([]);
    expect(j.tauB).toBeNull();
    expect(j.expectedTau).toBeNull();
  });

  it('refuses missing --n/--flawed and mixing --board with verdict files', async () => {
    const a = await runCli(['leaderboard', '--board', tinyBoard()]);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/--board needs --n N and --flawed E or --error-rate R/);
    const b = await runCli(['leaderboard', 'x.jsonl', '--board', tinyBoard(), '--n', '10', '--flawed', '1']);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/do not combine/);
    const c = await runCli(['leaderboard', '--board', tinyBoard(), '--n', '100', '--flawed', '200']);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/flawed must be between 0 and n/);
  });
});
