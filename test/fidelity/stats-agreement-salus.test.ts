import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { SHARED } from './helpers/shared-data.js';

const SALUS = join(SHARED, 'salus');

async function json(args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli([...args, '--json']);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('sqlboard stats agreement on SALUS files', () => {
  it('SALUS frontier predictions vs GT_RS_200 labels (CSV, joined on task id)', async () => {
    const a = await json(['stats', 'agreement', join(SALUS, 'predictions', 'frontier.csv'), join(SALUS, 'ground_truth', 'GT_RS_200.csv')]);
    expect(a.n).toBe(200);
    expect(a.onlyInA).toBe(1334);
    expect(a.onlyInB).toBe(0);
    // SALUS reports/metrics.json: 62/15/6/117 with error (0) as positive: A = prediction, B = truth,
    // so 6 missed errors are A 1 / B 0 and 15 false flags are A 0 / B 1.
    expect(a.table).toEqual({ bothTrue: 117, aTrueBFalse: 6, aFalseBTrue: 15, bothFalse: 62 });
    const acc = a.accuracy as { estimate: number; low: number; high: number };
    const kappa = a.kappa as { estimate: number; low: number; high: number; method: string };
    const mcc = a.mcc as { estimate: number; low: number; high: number };
    expect(acc.estimate).toBeCloseTo(0.895, 12);
    expect(kappa.estimate).toBeCloseTo(0.3582 / 0.4632, 12);
    expect(mcc.estimate).toBeCloseTo(0.777, 3);
    for (const iv of [acc, kappa, mcc]) {
      expect(iv.low).toBeLessThan(iv.estimate);
      expect(iv.high).toBeGreaterThan(iv.estimate);
    }
    expect(kappa.method).toMatch(/seed 42/);
    // Seeded: the same command prints the same interval.
    const again = await json(['stats', 'agreement', join(SALUS, 'predictions', 'frontier.csv'), join(SALUS, 'ground_truth', 'GT_RS_200.csv')]);
    expect(again.kappa).toEqual(a.kappa);
  });
});
