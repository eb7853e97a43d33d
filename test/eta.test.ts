import { describe, expect, it } from 'vitest';
import { EtaEstimator, formatEta } from '../src/report/eta.js';

describe('smoothed ETA', () => {
  it('a burst moves the estimate gradually; a steady rate converges to the true time left', () => {
    const eta = new EtaEstimator(0);
    // 10 items/s for 10 s, then one second with a burst of 500 (results reused from the store), then 10/s again.
    let done = 0;
    const left: number[] = [];
    for (let t = 1; t <= 30; t++) {
      done += t === 11 ? 500 : 10;
      eta.update(done, t * 1000);
      left.push(eta.secondsLeft(2000 - done)!);
    }
    expect(left[9]).toBeCloseTo((2000 - 100) / 10, 6);
    // A raw rate over the last second would say 3 s left after the burst; the EWMA says far more.
    expect(left[10]).toBeGreaterThan(5 * ((2000 - 600) / 510));
    // Twenty steady seconds later it is back within 2% of the truth (remaining / 10 per second).
    expect(Math.abs(left[29]! - (2000 - done) / 10) / ((2000 - done) / 10)).toBeLessThan(0.02);
  });

  it('unknown before the first window; formats as s, m, h', () => {
    const eta = new EtaEstimator(0);
    expect(eta.update(5, 500)).toBeUndefined();
    expect(formatEta(eta.secondsLeft(10))).toBe('?');
    expect(formatEta(42.4)).toBe('42s');
    expect(formatEta(185)).toBe('3m05s');
    expect(formatEta(3720)).toBe('1h02m');
  });
});
