import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoldErrorLabels } from '../../src/audit/evaluate.js';

describe('ground-truth labels for audit --labels', () => {
  it('a type on a correct row is dropped; a quoted type may span lines (label 0 = gold error)', () => {
    const f = join(mkdtempSync(join(tmpdir(), 'sqlboard-gt-')), 'gt.csv');
    writeFileSync(f, 'query_id,label,error_type\n1,0,"Query\nAmbiguity"\n2,1,Incorrect SQL\n3,0,\n');
    const gt = readGoldErrorLabels(f);
    expect([...gt.errorType]).toEqual([['1', 'Query\nAmbiguity']]);
    expect([...gt.isError]).toEqual([['1', true], ['2', false], ['3', true]]);
  });
});
