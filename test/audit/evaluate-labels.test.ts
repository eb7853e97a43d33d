import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoldErrorLabels } from '../../src/audit/evaluate.js';
import { SHARED } from '../helpers/cli.js';

describe('SALUS ground-truth labels for audit --labels', () => {
  it('reads BIRD ground truth with its error types in one pass (label 0 = gold error)', () => {
    const gt = readGoldErrorLabels(join(SHARED, 'salus', 'ground_truth', 'GT_RS_200.csv'));
    expect(gt.isError.size).toBe(200);
    expect([...gt.isError.values()].filter(Boolean)).toHaveLength(68);
    const counts: Record<string, number> = {};
    for (const t of gt.errorType.values()) counts[t] = (counts[t] ?? 0) + 1;
    expect(counts).toEqual({ 'Incorrect SQL': 36, 'Query Ambiguity': 14, 'Incorrect Assumption': 8, 'Data Inconsistency': 7, 'Incorrect Evidence': 3 });
    // Only wrong gold carries a type.
    for (const id of gt.errorType.keys()) expect(gt.isError.get(id)).toBe(true);
  });

  it('reads the Spider sample, which has no error_type column, and a type on a correct row is dropped', () => {
    const spider = readGoldErrorLabels(join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv'));
    expect([spider.isError.size, [...spider.isError.values()].filter(Boolean).length, spider.errorType.size]).toEqual([200, 60, 0]);
    const f = join(mkdtempSync(join(tmpdir(), 'sqlboard-gt-')), 'gt.csv');
    writeFileSync(f, 'query_id,label,error_type\n1,0,"Query\nAmbiguity"\n2,1,Incorrect SQL\n3,0,\n');
    const gt = readGoldErrorLabels(f);
    expect([...gt.errorType]).toEqual([['1', 'Query\nAmbiguity']]);
    expect([...gt.isError]).toEqual([['1', true], ['2', false], ['3', true]]);
  });
});
