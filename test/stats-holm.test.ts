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

  it('the leaderboard calls a pair significant, and a system tied with #1, by the Holm-adjusted p over all pairs', () => {
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
    for (const s of lb.systems.slice(1)) expect(s.vsTop!.indistinguishable).toBe(!lb.pairs.find((p) => p.a === lb.systems[0]!.system && p.b === s.system)!.significant);
    const text = itemsReport(lb, { files: ['i.jsonl'] }).sections[0]!.notes!.join(' ');
    expect(text).toMatch(new RegExp(`Tied with rank 1 \\(s0\\) by test — exact McNemar against it, Holm-adjusted over all 15 pairs, p ≥ 5%: ${lb.indistinguishableFromTop.length} of 5`));
  });
});
