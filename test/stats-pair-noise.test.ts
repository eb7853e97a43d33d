import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gapThreshold, pairNoiseBound, pairNoiseBoundFromCount } from '../src/stats/gap.js';
import { itemsLeaderboard } from '../src/stats/leaderboard.js';
import { itemsReport } from '../src/report/leaderboard-items.js';

const Z95 = 1.6448536269514722;

describe("each pair's noise bound from per-item results", () => {
  it('is SALUS g* when every wrong gold is discordant, smaller when some are not', () => {
    const salus = gapThreshold({ n: 1000, flawed: 100 });
    expect(pairNoiseBound({ n: 1000, discordant: 100, bothWrong: 0 }).threshold).toBeCloseTo(salus.threshold, 14);
    // 40 discordant, 10 both wrong: sqrt(4·40 + 10)/1000 · z
    expect(pairNoiseBound({ n: 1000, discordant: 40, bothWrong: 10 }).threshold).toBeCloseTo((Z95 * Math.sqrt(170)) / 1000, 12);
    // Count only: 100 wrong golds, 30 discordant tasks, 50 both wrong: 30 on the discordant, 50 on the both-wrong.
    expect(pairNoiseBoundFromCount(1000, 100, 30, 50)).toMatchObject({ discordant: 30, bothWrong: 50 });
    expect(pairNoiseBoundFromCount(1000, 20, 30, 50)).toMatchObject({ discordant: 20, bothWrong: 0 });
  });

  it('on a leaderboard with flags, counts the flagged tasks per pair by hand', () => {
    // Three systems over 400 tasks; tasks 0–99 are flagged.
    const rows: Record<string, (t: number) => boolean> = {
      top: (t) => t % 5 !== 0,
      mid: (t) => t % 5 !== 0 && t % 7 !== 0,
      low: (t) => t % 3 !== 0,
    };
    const recs = Object.entries(rows).flatMap(([system, f]) => Array.from({ length: 400 }, (_, t) => ({ system, taskId: String(t), correct: f(t) })));
    const flags = new Map(Array.from({ length: 400 }, (_, t) => [String(t), t < 100] as [string, boolean]));
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: recs }], flags, iterations: 20 });
    expect(lb.systems[0]!.system).toBe('top');
    for (const s of lb.systems.slice(1)) {
      let d = 0;
      let w = 0;
      for (let t = 0; t < 100; t++) {
        const a = rows.top!(t);
        const b = rows[s.system]!(t);
        if (a !== b) d++;
        if (!a && !b) w++;
      }
      const threshold = (Z95 * Math.sqrt(4 * d + w)) / 400;
      expect(s.noiseBound).toMatchObject({ discordant: d, bothWrong: w, flagged: true });
      expect(s.noiseBound!.threshold).toBeCloseTo(threshold, 12);
      expect(s.noiseBound!.within).toBe((lb.systems[0]!.correct - s.correct) / 400 <= threshold);
    }
    const text = itemsReport(lb, { files: ['x'] }).sections[0]!.notes!.join(' ');
    expect(text).toContain('Within the noise bound g*');
    expect(text).not.toMatch(/tied|told apart/i);
  });

  it('on the 23 bundled Spider systems with the bundled flags, matches a count over the items', () => {
    const dev = JSON.parse(readFileSync(join('data', 'spider', 'dev.json'), 'utf8')) as unknown[];
    const flagged = new Set(
      readFileSync(join('data', 'spider', 'audit', 'flags.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).filter((c) => c[1] === '0').map((c) => c[0]!),
    );
    // Synthetic verdicts on Spider's task ids: enough to check the counting against the real flags.
    const n = dev.length;
    const recs = ['a', 'b'].flatMap((system, s) => Array.from({ length: n }, (_, t) => ({ system, taskId: String(t), correct: (t * (s + 3)) % 11 < 8 - s })));
    const flags = new Map(Array.from({ length: n }, (_, t) => [String(t), flagged.has(String(t))] as [string, boolean]));
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: recs }], flags, iterations: 20 });
    const top = lb.systems[0]!.system;
    const other = lb.systems[1]!;
    const get = (sys: string, t: number): boolean => recs.find((r) => r.system === sys && r.taskId === String(t))!.correct;
    let d = 0;
    let w = 0;
    for (const id of flagged) {
      const t = Number(id);
      if (get(top, t) !== get(other.system, t)) d++;
      if (!get(top, t) && !get(other.system, t)) w++;
    }
    expect(other.noiseBound).toMatchObject({ discordant: d, bothWrong: w });
  });
});
