import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { SHARED } from './helpers/shared-data.js';

const LABELS = join(SHARED, 'salus', 'ground_truth', 'GT_RS_200_spider.csv');
const FLAGS = join(ROOT, 'data', 'spider', 'audit', 'flags.csv');

const rows = (file: string): string[][] => readFileSync(file, 'utf8').trim().split(/\r?\n/).slice(1).map((l) => l.split(','));

describe("leaderboard --gold-labels on SALUS's 200 hand-labelled Spider dev tasks", () => {
  it('reports the wrong gold left among the bundled flags\' unflagged tasks, counted here from the two CSVs', async () => {
    const flagged = new Set(rows(FLAGS).filter((r) => r[1] === '0').map((r) => r[0]!));
    const labels = rows(LABELS);
    const unflagged = labels.filter((r) => !flagged.has(r[0]!));
    const wrong = unflagged.filter((r) => r[1] === '0').length;
    // Verdicts for every Spider dev task (the residual needs only the task list).
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-residual-'));
    const items = join(dir, 'i.jsonl');
    writeFileSync(items, Array.from({ length: 1034 }, (_, t) => JSON.stringify({ system: 's', taskId: String(t), correct: t % 2 === 0 })).join('\n') + '\n');
    const r = await runCli(['leaderboard', items, '--flags', FLAGS, '--gold-labels', LABELS, '--json', '--iterations', '20']);
    expect(r.code, r.stderr).toBe(0);
    const res = JSON.parse(r.stdout).flags.residual as { labelled: number; unflagged: number; wrongUnflagged: number; rate: { estimate: number } };
    expect(res.labelled).toBe(200);
    expect(res.unflagged).toBe(unflagged.length);
    expect(res.wrongUnflagged).toBe(wrong);
    expect(res.rate.estimate).toBeCloseTo(wrong / unflagged.length, 12);
    // docs/statistics.md quotes this count and rate.
    const docs = readFileSync(join(ROOT, 'docs', 'statistics.md'), 'utf8').replace(/\s+/g, ' ');
    const pct = (x: number): string => (x * 100).toFixed(1);
    const rate = JSON.parse(r.stdout).flags.residual.rate as { estimate: number; low: number; high: number };
    expect(docs).toContain(`${wrong} of ${unflagged.length} unflagged labelled tasks have wrong gold, ${pct(rate.estimate)}% [${pct(rate.low)}, ${pct(rate.high)}]`);
  });
});
