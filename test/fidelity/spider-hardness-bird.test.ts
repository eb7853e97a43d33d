import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spiderHardnessDetailed } from '../../src/sql/spider-hardness.js';
import { SHARED } from './helpers/shared-data.js';

describe('spiderHardness robustness on BIRD', () => {
  it('gives a level for every BIRD dev gold query (outside Spider grammar at times)', () => {
    const bird = JSON.parse(readFileSync(join(SHARED, 'bird', 'dev.json'), 'utf8')) as Array<{ SQL: string }>;
    let parsed = 0;
    for (const { SQL } of bird) if (spiderHardnessDetailed(SQL).parsed) parsed++;
    expect(parsed).toBeGreaterThan(bird.length * 0.9);
  });
});
