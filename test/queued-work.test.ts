import { describe, expect, it } from 'vitest';
import { QueuedWorkEstimate } from '../src/execution/queued-work.js';

describe('QueuedWorkEstimate', () => {
  it('estimates nothing from a run still under way, whose heaviest queries came first', () => {
    const work = new QueuedWorkEstimate();
    for (let i = 0; i < 20; i++) work.add(50);
    for (let i = 0; i < 500; i++) work.add(0.1);
    expect(work.of(1000)).toBeUndefined();
    // The work done so far is what the pool goes by meanwhile.
    expect(work.spentMs).toBeCloseTo(20 * 50 + 500 * 0.1, 6);
  });

  it('estimates the queue at the mean of every answer once a run has been answered whole', () => {
    const work = new QueuedWorkEstimate();
    for (let i = 0; i < 10; i++) work.add(9);
    for (let i = 0; i < 90; i++) work.add(1);
    work.runAnswered();
    expect(work.of(50)).toBeCloseTo(((10 * 9 + 90) / 100) * 50, 6);
  });
});
