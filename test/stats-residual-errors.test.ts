import { describe, expect, it } from 'vitest';
import { residualErrors } from '../src/stats/residual-errors.js';
import { itemsLeaderboard } from '../src/stats/leaderboard.js';
import { itemsReport } from '../src/report/leaderboard-items.js';

/** Wilson score interval written out (a second formula, not the library's). */
function wilsonByHand(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const c = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const h = ((z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n)));
  return [c - h, c + h];
}

describe('the wrong-gold rate left among unflagged tasks', () => {
  it('counts the labelled unflagged tasks with wrong gold, with a Wilson interval', () => {
    // 100 tasks; 0–19 flagged. Labelled: every even task; gold wrong on multiples of 6 and on 1 (unlabelled).
    const tasks = Array.from({ length: 100 }, (_, i) => String(i));
    const gold = new Map(tasks.filter((t) => Number(t) % 2 === 0).map((t) => [t, Number(t) % 6 !== 0] as [string, boolean]));
    const r = residualErrors(tasks, (t) => Number(t) < 20, gold);
    // Unflagged labelled: even 20..98 = 40 tasks; wrong among them: multiples of 6 in 24..96 = 13.
    expect(r).toMatchObject({ labelled: 50, unflagged: 40, wrongUnflagged: 13, flagged: 10, wrongFlagged: 4 });
    const [lo, hi] = wilsonByHand(13, 40);
    expect(r.rate.estimate).toBeCloseTo(13 / 40, 12);
    expect(r.rate.low).toBeCloseTo(lo, 10);
    expect(r.rate.high).toBeCloseTo(hi, 10);
  });

  it('the leaderboard reports it beside clean accuracy, with the circularity warning', () => {
    const recs = ['a', 'b'].flatMap((system, s) => Array.from({ length: 100 }, (_, t) => ({ system, taskId: String(t), correct: t % (3 + s) !== 0 })));
    const flags = new Map(Array.from({ length: 100 }, (_, t) => [String(t), t < 20] as [string, boolean]));
    const gold = new Map(Array.from({ length: 100 }, (_, t) => [String(t), t % 5 !== 0] as [string, boolean]));
    const lb = itemsLeaderboard({ sources: [{ file: 'x', records: recs }], flags, goldLabels: gold, iterations: 20 });
    // Unflagged 20..99: 80 tasks, multiples of 5 among them: 16.
    expect(lb.flags!.residual).toMatchObject({ unflagged: 80, wrongUnflagged: 16 });
    const notes = itemsReport(lb, { files: ['x'], goldLabelsFile: 'g.csv' }).sections[1]!.notes!.join(' ');
    expect(notes).toContain('Clean accuracy is circular when the flags come from an audit that used these same systems as agents');
    expect(notes).toContain('Wrong gold left among unflagged tasks, by the human labels in g.csv: 16 of 80 labelled unflagged tasks, 20.0%');
    expect(notes).toContain('only if the labelled tasks are a random sample');
  });
});
