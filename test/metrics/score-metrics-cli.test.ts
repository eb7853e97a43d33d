import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readItems } from '../../src/benchmark/items.js';
import { devGoldFile, runCli, SPIDER } from '../helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-metrics-'));
const DB = join(SPIDER, 'database');

/** The first 40 Spider dev questions (concert_singer, pets_1) with tables.json beside them. */
function smallSpider(): { questions: string; gold: string; c3: string } {
  const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
  const questions = join(tmp, 'dev40.json');
  writeFileSync(questions, JSON.stringify(dev.slice(0, 40)));
  copyFileSync(join(SPIDER, 'tables.json'), join(tmp, 'tables.json'));
  const lines = (f: string): string => readFileSync(f, 'utf8').split('\n').slice(0, 40).join('\n') + '\n';
  const gold = join(tmp, 'gold40.sql');
  writeFileSync(gold, lines(devGoldFile()));
  const c3 = join(tmp, 'c3-40.sql');
  writeFileSync(c3, lines(join(SPIDER, 'predictions', 'c3', 'predicted_sql.txt')));
  return { questions, gold, c3 };
}

interface MetricJson {
  n: number;
  mean: number;
  interval: { low: number; high: number };
  byDifficulty: Record<string, { n: number; mean: number }>;
  partial?: Record<string, { acc: number; rec: number; f1: number }>;
  unparsed?: number;
  timing?: { timed: number; reps: number; failed: number };
}

describe('score --metric: every metric through JSON, --items and leaderboard', () => {
  const { questions, gold, c3 } = smallSpider();

  it('Spider defaults to EX + EM; --metric adds Soft-F1, VES and R-VES with intervals, by difficulty and per item', async () => {
    const items = join(tmp, 'items.jsonl');
    const base = ['score', '--questions', questions, '--db-root', DB, '--store', join(tmp, 's.db'), '--system', `gold=${gold}`, '--system', `c3=${c3}`];
    const def = await runCli([...base, '--json']);
    expect(def.code, def.stderr).toBe(0);
    const d = JSON.parse(def.stdout) as { systems: { name: string; metrics: Record<string, MetricJson> }[] };
    expect(Object.keys(d.systems[0]!.metrics)).toEqual(['em']);
    const r = await runCli([...base, '--metric', 'ex,soft-f1,em', '--metric', 'ves,r-ves', '--ves-reps', '3', '--items', items, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { systems: { name: string; correct: number; metrics: Record<string, MetricJson> }[] };
    const g = out.systems.find((s) => s.name === 'gold')!;
    expect(Object.keys(g.metrics)).toEqual(['soft-f1', 'em', 'ves', 'r-ves']);
    expect(g.metrics['soft-f1']!.mean).toBe(1);
    expect(g.metrics.em!.mean).toBe(1);
    expect(g.metrics.em!.unparsed).toBe(0);
    expect(g.metrics.em!.partial!.select).toEqual({ acc: 1, rec: 1, f1: 1 });
    expect(g.metrics.ves!.timing).toMatchObject({ timed: 40, reps: 3, failed: 0 });
    const c = out.systems.find((s) => s.name === 'c3')!;
    expect(c.metrics.em!.interval.low).toBeLessThanOrEqual(c.metrics.em!.mean);
    expect(c.metrics['soft-f1']!.interval.high).toBeGreaterThanOrEqual(c.metrics['soft-f1']!.mean);
    expect(Object.keys(c.metrics.em!.byDifficulty)).toEqual(['easy', 'medium', 'hard', 'extra']);
    // Per item: the means in the JSON are the means of the --items values.
    const recs = readItems(items).filter((it) => it.system === 'c3');
    expect(recs).toHaveLength(40);
    const mean = (f: string): number => recs.reduce((a, it) => a + (it[f] as number), 0) / recs.length;
    expect(mean('softF1')).toBeCloseTo(c.metrics['soft-f1']!.mean, 12);
    expect(mean('em')).toBeCloseTo(c.metrics.em!.mean, 12);
    expect(mean('rVes')).toBeCloseTo(c.metrics['r-ves']!.mean, 12);
    // VES and R-VES are timed only on EX-correct items; the others score 0.
    for (const it of recs) if (!it.correct) expect([it.ves, it.rVes]).toEqual([0, 0]);
    expect(recs.filter((it) => it.correct).every((it) => (it.ves as number) > 0)).toBe(true);

    const lb = await runCli(['leaderboard', items, '--metric', 'soft-f1', '--json']);
    expect(lb.code, lb.stderr).toBe(0);
    const board = JSON.parse(lb.stdout) as { systems: { system: string; mean: { estimate: number } }[] };
    expect(board.systems.map((s) => s.system)).toEqual(['gold', 'c3']);
    expect(board.systems[1]!.mean.estimate).toBeCloseTo(c.metrics['soft-f1']!.mean, 12);
    // stats interval --items: the same bootstrap interval per system.
    const iv = await runCli(['stats', 'interval', '--items', items, '--metric', 'soft-f1', '--json']);
    expect(iv.code, iv.stderr).toBe(0);
    const ivJson = JSON.parse(iv.stdout) as { systems: { system: string; mean: { estimate: number; low: number; high: number } }[] };
    const c3iv = ivJson.systems.find((s) => s.system === 'c3')!.mean;
    expect(c3iv.estimate).toBeCloseTo(c.metrics['soft-f1']!.mean, 12);
    expect([c3iv.low, c3iv.high]).toEqual([c.metrics['soft-f1']!.interval.low, c.metrics['soft-f1']!.interval.high]);
    const lbEm = await runCli(['leaderboard', items, '--metric', 'em', '--json']);
    expect(lbEm.code, lbEm.stderr).toBe(0);
    const emBoard = JSON.parse(lbEm.stdout) as { systems: { system: string; correct: number }[] };
    expect(emBoard.systems.find((s) => s.system === 'c3')!.correct).toBe(Math.round(40 * c.metrics.em!.mean));
    // The table says what it ranks: EM, not execution accuracy.
    const emTable = await runCli(['leaderboard', items, '--metric', 'em']);
    expect(emTable.code, emTable.stderr).toBe(0);
    expect(emTable.stdout).toMatch(/EM accuracy/);
    expect(emTable.stdout).not.toMatch(/Execution accuracy/);
  }, 600_000);

  it('refuses an unknown metric and EM without a tables.json, saying what to pass', async () => {
    const bad = await runCli(['score', '--questions', questions, '--db-root', DB, '--system', `gold=${gold}`, '--metric', 'ex,f1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown metric "f1" in --metric: choose from ex, soft-f1, em, ves, r-ves/);
    const noTables = await runCli(['score', '--questions', questions, '--db-root', DB, '--system', `gold=${gold}`, '--metric', 'em', '--tables', join(tmp, 'none.json')]);
    expect(noTables.code).toBe(2);
    expect(noTables.stderr).toMatch(/needs Spider's tables.json .*--tables FILE/);
  }, 300_000);
});
