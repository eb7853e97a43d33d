import { describe, expect, it } from 'vitest';
import { keptRatios, rVesReward, timePair, timeRatio, vesFromRatios, type Clock } from '../../src/execution/ves.js';

/** A clock that advances by scripted durations: each run(sql) takes the next duration for its query. */
function scripted(durations: Record<string, number[]>): { clock: Clock; run: (sql: string) => void } {
  let now = 1000;
  const next = new Map(Object.entries(durations).map(([k, v]) => [k, [...v]]));
  return {
    clock: () => now,
    run: (sql) => {
      const d = next.get(sql)!.shift();
      if (d === undefined) throw new Error(`no scripted duration left for ${sql}`);
      now += d;
    },
  };
}

describe('VES / R-VES arithmetic (official protocol, hand-computed)', () => {
  it('reward buckets at their edges (mini-dev)', () => {
    expect(rVesReward(0)).toBe(0);
    expect(rVesReward(0.2499)).toBe(0.25);
    expect(rVesReward(0.25)).toBe(0.5);
    expect(rVesReward(0.4999)).toBe(0.5);
    expect(rVesReward(0.5)).toBe(0.75);
    expect(rVesReward(0.9999)).toBe(0.75);
    expect(rVesReward(1)).toBe(1);
    expect(rVesReward(1.9999)).toBe(1);
    expect(rVesReward(2)).toBe(1.25);
    expect(rVesReward(40)).toBe(1.25);
  });

  it('drops ratios outside mean ± 3σ (population σ, strict bounds)', () => {
    // Nineteen ratios of 1 and one of 10: mean 1.45, σ = √(0.81·19/20 + 73.1025/20) = 1.9615...,
    // so the bounds are (−4.43, 7.33): 10 is dropped, the ones kept; the time ratio is 1.
    const ratios = [...Array(19).fill(1), 10];
    expect(keptRatios(ratios)).toEqual(Array(19).fill(1));
    expect(timeRatio(ratios)).toBe(1);
    // On the bound: nine 0s and one 10 give mean 1 and σ = √(90/10) = 3 exactly, so 10 sits exactly
    // on mean + 3σ and the strict rule drops it (time ratio 0, from the nine 0s).
    expect(keptRatios([0, 0, 0, 0, 0, 0, 0, 0, 0, 10])).toEqual(Array(9).fill(0));
    // Just inside: with nine values one outlier is at most √8 σ from the mean. Eight 0s and a 9:
    // mean 1, σ = √8, bound 1 + 3√8 = 9.49 > 9: all kept, time ratio 1.
    expect(keptRatios([0, 0, 0, 0, 0, 0, 0, 0, 9])).toHaveLength(9);
    expect(timeRatio([0, 0, 0, 0, 0, 0, 0, 0, 9])).toBe(1);
    // Identical ratios: σ = 0 and the strict bounds keep nothing; the official division by zero scores 0.
    expect(timeRatio([2, 2, 2])).toBe(0);
  });

  it('times prediction then gold each repetition with the injected clock and scores both metrics', () => {
    // Prediction 4 ms, gold 10 ms → ratio 2.5 every time except one slow prediction (40 ms → 0.25)
    // among 20 repetitions: mean 2.3875, σ = 0.4904..., bound low 0.916: the 0.25 is dropped.
    const pred = [...Array(10).fill(4), 40, ...Array(9).fill(4)];
    const { clock, run } = scripted({ P: pred, G: Array(20).fill(10) });
    const t = timePair(run, 'P', 'G', 20, clock);
    expect(t.reps).toBe(20);
    expect(t.kept).toBe(19);
    expect(t.ratio).toBe(2.5);
    expect(t.ves).toBeCloseTo(Math.sqrt(2.5), 15);
    expect(t.reward).toBe(1.25);
    expect(t.rVes).toBeCloseTo(Math.sqrt(1.25), 15);
  });

  it('a slower prediction: ratio 0.4 → VES √0.4, reward 0.5 → R-VES √0.5', () => {
    const { clock, run } = scripted({ P: Array(5).fill(25), G: Array(5).fill(10) });
    const t = timePair(run, 'P', 'G', 5, clock);
    // All ratios equal 0.4: σ = 0, so the official rule keeps none and the item scores 0.
    expect(t.ratio).toBe(0);
    expect(t.ves).toBe(0);
    expect(t.rVes).toBe(0);
    const varied = vesFromRatios([0.4, 0.38, 0.42, 0.4]);
    expect(varied.ratio).toBeCloseTo(0.4, 15);
    expect(varied.ves).toBeCloseTo(Math.sqrt(0.4), 15);
    expect(varied.reward).toBe(0.5);
    expect(varied.rVes).toBeCloseTo(Math.sqrt(0.5), 15);
  });

  it('a failing query or a zero-time prediction fails the pair (the official item scores 0)', () => {
    const { clock, run } = scripted({ P: [0], G: [5] });
    expect(() => timePair(run, 'P', 'G', 1, clock)).toThrow(/division by zero/);
    const broken = scripted({ P: [], G: [] });
    expect(() => timePair(broken.run, 'P', 'G', 1, broken.clock)).toThrow();
  });
});
