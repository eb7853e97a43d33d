import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { breakdownByDatabase } from '../src/stats/by-database.js';
import { readItems } from '../src/benchmark/items.js';
import { devGoldFile, maxLineWidth, runCli, SPIDER, TAB_SYSTEM } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-bydb-'));
const DB = join(SPIDER, 'database');
// Spider dev tasks 0-79: concert_singer (45), pets_1 (35) — two databases, fast to execute.
const N = 80;
const dev = (JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string }[]).slice(0, N);
const QUESTIONS = join(tmp, 'dev.json');
writeFileSync(QUESTIONS, JSON.stringify(dev));
const TA = join(tmp, 'chang.sql');
writeFileSync(TA, readFileSync(TAB_SYSTEM.file, 'utf8').split('\n').slice(0, N).join('\n') + '\n');
const GOLD = join(tmp, 'gold.sql');
writeFileSync(GOLD, readFileSync(devGoldFile(), 'utf8').split('\n').slice(0, N).join('\n') + '\n');

interface Cell { system: string; n: number; correct: number; accuracy: { estimate: number; low: number; high: number } }
interface Db { dbId: string; tasks: number; systems: Cell[] }

describe('--by db', () => {
  it('breakdownByDatabase: tasks are the union over systems; a missing or undecided verdict counts wrong', () => {
    const rows = breakdownByDatabase(
      [
        { system: 'a', taskId: '1', dbId: 'x', correct: true },
        { system: 'a', taskId: '2', dbId: 'x', correct: null },
        { system: 'b', taskId: '2', dbId: 'x', correct: true },
        { system: 'b', taskId: '3', dbId: 'y', correct: false, softF1: 0.5 },
      ],
      ['a', 'b'],
      { 'soft-f1': 'softF1' },
    );
    expect(rows.map((r) => [r.dbId, r.tasks])).toEqual([['x', 2], ['y', 1]]);
    expect(rows[0]!.systems.map((s) => [s.system, s.correct, s.n])).toEqual([['a', 1, 2], ['b', 1, 2]]);
    expect(rows[1]!.systems.map((s) => [s.correct, s.metrics['soft-f1']])).toEqual([[0, 0], [0, 0.5]]);
    expect(rows[0]!.systems[0]!.accuracy.low).toBeLessThan(0.5);
  });

  it('score --by db: per-database counts add up to the overall score, in --json (with intervals), the table, CSV and Markdown', async () => {
    const base = ['score', '--questions', QUESTIONS, '--db-root', DB, '--store', join(tmp, 's.db'), '--system', `chang=${TA}`, '--system', `gold=${GOLD}`, '--by', 'db'];
    const items = join(tmp, 'items.jsonl');
    const r = await runCli([...base, '--json', '--items', items]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { systems: { name: string; correct: number }[]; byDb: Db[] };
    const expectedTasks = new Map<string, number>();
    for (const q of dev) expectedTasks.set(q.db_id, (expectedTasks.get(q.db_id) ?? 0) + 1);
    expect(out.byDb.map((d) => [d.dbId, d.tasks])).toEqual([...expectedTasks].sort());
    for (const s of out.systems) {
      const sum = out.byDb.reduce((k, d) => k + d.systems.find((c) => c.system === s.name)!.correct, 0);
      expect(sum, s.name).toBe(s.correct);
    }
    // Recounted from the --items file, database by database.
    const recs = readItems(items).filter((x) => x.system === 'chang');
    for (const d of out.byDb) {
      const cell = d.systems.find((c) => c.system === 'chang')!;
      expect(cell.correct).toBe(recs.filter((x) => x.dbId === d.dbId && x.correct).length);
      expect(cell.accuracy.low).toBeLessThanOrEqual(cell.accuracy.estimate);
      expect(cell.accuracy.high).toBeGreaterThanOrEqual(cell.accuracy.estimate);
    }
    expect(out.byDb.every((d) => d.systems.find((c) => c.system === 'gold')!.accuracy.estimate === 1)).toBe(true);
    // The overall EX carries its Wilson interval in --json too.
    const overall = (JSON.parse(r.stdout) as { systems: { name: string; accuracy: number; accuracyInterval: { low: number; high: number; method: string } }[] }).systems;
    for (const s of overall) {
      expect(s.accuracyInterval.low).toBeLessThanOrEqual(s.accuracy);
      expect(s.accuracyInterval.high).toBeGreaterThanOrEqual(s.accuracy);
      expect(s.accuracyInterval.method).toMatch(/Wilson/);
    }

    const table = await runCli(base);
    expect(table.stdout).toContain('By database');
    expect(table.stdout).toMatch(/concert_singer .*chang/);
    expect(maxLineWidth(table.stdout)).toBeLessThanOrEqual(100);
    const md = await runCli([...base, '--md', join(tmp, 'r.md'), '--csv', join(tmp, 'r.csv')]);
    expect(md.code, md.stderr).toBe(0);
    expect(readFileSync(join(tmp, 'r.md'), 'utf8')).toContain('## By database');
  });

  it('leaderboard --by db from score --items; refused with --board and for verdicts without dbId', async () => {
    const items = join(tmp, 'items.jsonl');
    const r = await runCli(['leaderboard', items, '--by', 'db', '--iterations', '100', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { byDb: Db[] };
    expect(out.byDb.map((d) => d.dbId)).toEqual(['concert_singer', 'pets_1']);
    const md = await runCli(['leaderboard', items, '--by', 'db', '--iterations', '100', '--md']);
    expect(md.stdout).toMatch(/## By database[\s\S]*\| pets_1 \|/);

    const noDb = join(tmp, 'nodb.jsonl');
    writeFileSync(noDb, '{"system":"a","taskId":"1","correct":true}\n');
    const bad = await runCli(['leaderboard', noDb, '--by', 'db']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/carry no dbId/);
    const board = await runCli(['leaderboard', '--board', 'x.csv', '--n', '10', '--flawed', '1', '--by', 'db']);
    expect(board.code).toBe(2);
  });
});
