import { describe, expect, it } from 'vitest';
import { adjustForLabelNoise } from '../src/stats/error-rate.js';

describe('the calibrated error rate corrected for noisy hand labels', () => {
  it('inverts the misclassification map: labels flipped with ε give ε + θ(1 − 2ε)', () => {
    // Forward by simulation of the expectation: true rate 0.3, ε 0.1 → observed 0.1 + 0.3·0.8 = 0.34.
    const observed = 0.1 + 0.3 * (1 - 2 * 0.1);
    const a = adjustForLabelNoise({ estimate: observed, ciLow: observed - 0.05, ciHigh: observed + 0.05 }, 0.1);
    expect(a.estimate).toBeCloseTo(0.3, 12);
    // The interval widens by 1/(1 − 2ε) = 1.25: 0.1 wide becomes 0.125.
    expect(a.ciHigh - a.ciLow).toBeCloseTo(0.125, 12);
    expect(adjustForLabelNoise({ estimate: 0.3, ciLow: 0.25, ciHigh: 0.35 }, 0)).toMatchObject({ estimate: 0.3, ciLow: 0.25, ciHigh: 0.35 });
    // Clipped to [0, 1] below ε.
    expect(adjustForLabelNoise({ estimate: 0.05, ciLow: 0.02, ciHigh: 0.08 }, 0.1).ciLow).toBe(0);
    expect(() => adjustForLabelNoise({ estimate: 0.3, ciLow: 0.2, ciHigh: 0.4 }, 0.5)).toThrow(RangeError);
  });
});
