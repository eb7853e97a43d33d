import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED } from './helpers/shared-data.js';
import { expectSameAsCsvParse } from '../helpers/csv-reference.js';

describe('parseCsvRows (papaparse) on the SALUS label files', () => {
  it('reads each cell for cell as csv-parse does, with the line each record ends on', () => {
    const salus = join(SHARED, 'salus', 'ground_truth');
    const files = readdirSync(salus).filter((f) => f.endsWith('.csv')).map((f) => join(salus, f));
    expect(files.length).toBeGreaterThanOrEqual(4);
    expectSameAsCsvParse(files);
  });
});
