import { describe, expect, it } from 'vitest';
import { QueuedWorkEstimate } from '../src/execution/queued-work.js';

describe('QueuedWorkEstimate', () => {
  it('says nothing before a full sample, then leaves out the slowest tenth of the last answers', () => {
    const work = new QueuedWorkEstimate();
    // A run starts with its heaviest queries: 20 of 50 ms, then light ones of 0.1 ms.
    for (let i = 0; i < 20; i++) work.add(50);
    for (let i = 0; i < QueuedWorkEstimate.SAMPLE - 21; i++) work.add(0.1);
    expect(work.of(1000)).toBeUndefined();
    work.add(0.1);
    // The 20 heavy answers are the slowest tenth of 200: the rest of the queue is estimated at 0.1 ms each,
    // where the plain mean (5.09 ms) would say 5 s.
    expect(work.of(1000)).toBeCloseTo(100, 6);
    // Every answer's time is counted as work done.
    expect(work.spentMs).toBeCloseTo(20 * 50 + 180 * 0.1, 6);
  });

  it('follows the queue: the mean is over the last answers only', () => {
    const work = new QueuedWorkEstimate();
    for (let i = 0; i < 1000; i++) work.add(0.1);
    for (let i = 0; i < QueuedWorkEstimate.SAMPLE; i++) work.add(2);
    expect(work.of(500)).toBeCloseTo(1000, 6);
  });
});
