import { describe, expect, it } from 'vitest';
import { addCleanSubset, type ExRun } from '../src/execution/ex-run.js';

describe('clean-subset accuracy by difficulty', () => {
  it('counts the unflagged tasks per level and system, by hand', () => {
    const levels = ['easy', 'hard'];
    const items = ['a', 'b'].flatMap((system, s) =>
      Array.from({ length: 40 }, (_, t) => ({ system, taskId: String(t), correct: (t + s) % 3 !== 0, difficulty: levels[t % 2]! })),
    );
    const run = { items, systems: [{ name: 'a' }, { name: 'b' }] } as unknown as ExRun;
    const flags = new Map(Array.from({ length: 40 }, (_, t) => [String(t), t % 5 === 0] as [string, boolean]));
    const r = addCleanSubset(run, flags);
    expect(r.flagged).toBe(8);
    for (const [i, sys] of run.systems.entries()) {
      for (const level of levels) {
        const mine = items.filter((x) => x.system === sys.name && x.difficulty === level && Number(x.taskId) % 5 !== 0);
        const b = sys.clean!.byDifficulty[level]!;
        expect([b.n, b.correct], `${sys.name} ${level} (${i})`).toEqual([mine.length, mine.filter((x) => x.correct).length]);
        expect(b.accuracy).toBeCloseTo(mine.filter((x) => x.correct).length / mine.length, 12);
      }
      expect(sys.clean!.n).toBe(32);
    }
  });
});
