import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDescriptions } from '../../src/judge/schema-text.js';
import { SHARED } from './helpers/shared-data.js';

describe('schema text (BIRD descriptions)', () => {
  it("reads BIRD's database_description CSVs (BOM, value descriptions)", () => {
    const dir = join(SHARED, 'bird', 'database_description', 'california_schools');
    const d = readDescriptions(dir, ['frpm', 'satscores', 'schools', 'no_such_table']);
    expect([...d.keys()].sort()).toEqual(['frpm', 'satscores', 'schools']);
    const frpm = d.get('frpm')!;
    // A description that only repeats the column name adds nothing and is left out.
    expect(frpm.some((l) => l.startsWith('CDSCode'))).toBe(false);
    expect(frpm).toContain('County Name: County Code');
    expect(frpm.find((l) => l.startsWith('Charter School (Y/N)'))).toMatch(/values: 0:/);
  });
});
