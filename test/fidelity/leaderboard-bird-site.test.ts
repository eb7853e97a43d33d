import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { board } from '../helpers/board.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { SHARED } from './helpers/shared-data.js';

/** The BIRD site's leaderboard (../shared/datasets/bird-leaderboard, no licence recorded: read, never bundled). */
const BOARD = join(SHARED, 'bird-leaderboard', 'overall-ex.csv');

describe('leaderboard --board on the BIRD site leaderboard', () => {
  it('reproduces SALUS g* = 5.09 points for N = 1534, e = 564 and reports the structure', async () => {
    const j = await board(['--board', BOARD, '--n', '1534', '--flawed', '564']);
    expect(j.threshold).toBeCloseTo(0.0509, 4);
    expect(j.sigmaGap).toBeCloseTo(0.031, 4);
    expect(j.analysed).toBe(30);
    expect(j.available).toBe(107); // SOURCES.md: 107 of 118 rows have both dev and test
    expect(j.systems).toHaveLength(30);
    expect(j.totalPairs).toBe(435);
    expect(j.pairs).toHaveLength(435);
    expect(j.top).toBe('AskData + GPT-4o');
    expect(j.systems[0]).toMatchObject({ rank: 1, name: 'AskData + GPT-4o', dev: 0.7764, test: 0.8195 });
    // fractions, not percents
    for (const s of j.systems) expect(s.test).toBeLessThan(1);
    // sorted by test, descending
    for (let i = 1; i < j.systems.length; i++) expect(j.systems[i]!.test).toBeLessThanOrEqual(j.systems[i - 1]!.test);
    // the within-the-noise-bound set is exactly the systems within g* of rank 1
    const within = j.systems.slice(1).filter((s) => j.systems[0]!.test - s.test <= j.threshold).map((s) => s.name);
    expect(j.withinNoiseBoundOfTop).toEqual(within);
    expect(within.length).toBeGreaterThan(5);
    expect(j.exceedingPairs).toBe(j.pairs.filter((p) => p.gap > j.threshold).length);
    for (const p of j.pairs) expect(p.exceedsThreshold).toBe(p.gap > j.threshold);
    expect(j.tauB).toBeGreaterThan(-1);
    expect(j.tauB).toBeLessThan(1);
    expect(j.expectedTau).toBeGreaterThan(0);
    expect(j.expectedTau).toBeLessThan(1);
    // rows without both scores are skipped and reported, not guessed
    expect(j.skipped.map((s) => s.name)).toContain('Human Performance');
    // a quoted field spans lines 19–20: the row is reported where it starts
    expect(j.skipped.find((s) => s.name === 'DataSpace-Text2SQL')).toEqual({ name: 'DataSpace-Text2SQL', line: 19, reason: 'no dev score' });
    expect(j.skipped.find((s) => s.name === 'Claude Opus 4.6')?.reason).toMatch(/New Dev 68\.77/);
    expect(j.renamed.map((r) => r.to)).toContain('DeepEye-SQL (2)');
  });

  it('--error-rate gives the same threshold as the equivalent --flawed', async () => {
    const j = await board(['--board', BOARD, '--n', '1534', '--error-rate', String(564 / 1534), '--top', '10']);
    expect(j.threshold).toBeCloseTo(0.0509, 4);
    expect(j.systems).toHaveLength(10);
  });

  it('prints a terminal table by default, with the skipped rows', async () => {
    const r = await runCli(['leaderboard', '--board', BOARD, '--n', '1534', '--flawed', '564', '--top', '5']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('g* = z·σ_gap = 5.09 points');
    expect(r.stdout).toContain('AskData + GPT-4o');
    expect(r.stdout).toContain('Human Performance');
  });

  it("on the BIRD board, SALUS's dev comparison: #1 on dev is within g* of 28 of the next 29", async () => {
    const { parse } = await import('csv-parse/sync');
    const rows = (parse(readFileSync(BOARD, 'utf8'), { columns: true, skip_empty_lines: true }) as Record<string, string>[])
      .filter((r) => r.dev !== '' && r.test !== '' && r.dev !== undefined)
      .map((r) => ({ name: r.model!, dev: Number(r.dev), test: Number(r.test) }))
      .sort((x, y) => y.test - x.test || y.dev - x.dev)
      .slice(0, 30);
    const g = (1.6448536269514722 * 2 * Math.sqrt(564)) / 1534;
    const leader = [...rows].sort((x, y) => y.dev - x.dev)[0]!;
    const within = rows.filter((r) => r !== leader && (leader.dev - r.dev) / 100 <= g + 1e-12).length;
    const j = await board(['--board', BOARD, '--n', '1534', '--flawed', '564']);
    expect(j.dev.top).toBe(leader.name);
    expect(j.dev.withinNoiseBoundOfTop).toHaveLength(within);
    expect(within).toBe(28);
    // docs/commands/leaderboard.md quotes this run's figures
    const page = readFileSync(join(ROOT, 'docs', 'commands', 'leaderboard.md'), 'utf8').replace(/\s+/g, ' ');
    expect(page).toContain(
      `g* = ${(j.threshold * 100).toFixed(2)} points; on test ${j.withinNoiseBoundOfTop.length} of the ${j.systems.length - 1} systems below #1 are within it; ` +
        `on dev, the dev leader is within it of ${within} of the other ${rows.length - 1}; tau-b ${j.tauB!.toFixed(3)} against an expected ${j.expectedTau!.toFixed(3)}`,
    );
  });
});
