import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGoldErrorLabels } from '../../src/audit/evaluate.js';
import { SHARED } from './helpers/shared-data.js';

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

  it('reads the Spider sample, which has no error_type column', () => {
    const spider = readGoldErrorLabels(join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv'));
    expect([spider.isError.size, [...spider.isError.values()].filter(Boolean).length, spider.errorType.size]).toEqual([200, 60, 0]);
  });
});
