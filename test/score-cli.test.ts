import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { devGoldFile, runCli, runCliAndKill, SPIDER } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-score-'));
const DEV = join(SPIDER, 'dev.json');
const DB = join(SPIDER, 'database');
const GOLD = devGoldFile();
const TA = join(SPIDER, 'predictions', 'ta-sql', 'spider_predict_dev.sql');

interface ScoreJson {
  comparator: string;
  tasks: number;
  systems: { name: string; n: number; correct: number; accuracy: number; execErrors: number; missing: number; byDifficulty: Record<string, { n: number; correct: number; accuracy: number }> }[];
  execution: { requested: number; distinct: number; executed: number; reused: number };
}

async function score(args: string[], store: string): Promise<ScoreJson> {
  const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', store, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ScoreJson;
}

describe('sqlboard score on Spider dev', () => {
  it('executes all 1,034 gold queries; gold as prediction scores 100% under both comparators', async () => {
    const store = join(tmp, 'gold.db');
    for (const comparator of ['spider', 'bird']) {
      const out = await score(['--system', `gold=${GOLD}`, '--comparator', comparator], store);
      expect(out.comparator).toBe(comparator);
      expect(out.tasks).toBe(1034);
      expect(out.systems[0]).toMatchObject({ name: 'gold', n: 1034, correct: 1034, accuracy: 1, execErrors: 0, missing: 0 });
      expect(out.systems[0]!.byDifficulty).toEqual({
        easy: { n: 248, correct: 248, accuracy: 1 },
        medium: { n: 446, correct: 446, accuracy: 1 },
        hard: { n: 174, correct: 174, accuracy: 1 },
        extra: { n: 166, correct: 166, accuracy: 1 },
      });
    }
  });

  it("scores TA-SQL's predictions as the official evaluators do", async () => {
    const store = join(tmp, 'ta.db');
    const items = join(tmp, 'ta-items.jsonl');
    const spider = await score(['--system', `ta-sql=${TA}`, '--items', items], store);
    // test-suite-sql-eval exec mode on these databases (verified item by item against a Python run
    // of the official algorithm): 885/1034. Eight wta_1 `rankings` items are empty here on both sides.
    expect(spider.systems[0]!.correct).toBe(885);
    const bird = await score(['--system', `ta-sql=${TA}`, '--comparator', 'bird'], store);
    expect(bird.systems[0]!.correct).toBe(827);
    expect(bird.systems[0]!.accuracy.toFixed(4)).toBe('0.7998');
    // The second run executed only what the DISTINCT-free Spider run had not.
    expect(bird.execution.reused).toBeGreaterThan(1000);
    const lines = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1034);
    // Spider questions get exact match by default (official evaluation.py: 1 on this item).
    expect(lines[0]).toEqual({ system: 'ta-sql', taskId: '0', dbId: 'concert_singer', correct: true, difficulty: 'easy', em: 1 });
    const failed = lines.filter((l) => l.predError !== undefined);
    expect(failed.length).toBe(spider.systems[0]!.execErrors);
    expect(typeof failed[0]!.predError).toBe('string');
  });

  it('re-running recomputes nothing', async () => {
    const store = join(tmp, 'rerun.db');
    const first = await score(['--system', `ta-sql=${TA}`], store);
    expect(first.execution.executed).toBe(first.execution.distinct);
    const second = await score(['--system', `ta-sql=${TA}`], store);
    expect(second.execution).toMatchObject({ executed: 0, reused: first.execution.distinct });
    expect(second.systems).toEqual(first.systems);
  });

  it('reports a missing prediction as missing and counts it wrong', async () => {
    const f = join(tmp, 'one.json');
    writeFileSync(f, JSON.stringify({ '0': 'SELECT count(*) FROM singer\t----- bird -----\tconcert_singer' }));
    const out = await score(['--system', `one=${f}`], join(tmp, 'one.db'));
    expect(out.systems[0]).toMatchObject({ correct: 1, missing: 1033 });
  });

  it('fails with a clear message on misaligned files and unknown databases', async () => {
    const short = join(tmp, 'short.sql');
    writeFileSync(short, 'SELECT 1\n');
    const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', join(tmp, 'x.db'), '--system', `s=${short}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/short\.sql:2: 1 prediction lines, but the questions file .* has 1034/);
    const r2 = await runCli(['score', '--questions', DEV, '--db-root', tmp, '--store', join(tmp, 'x.db'), '--system', `g=${GOLD}`]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/unknown database "concert_singer".*does not exist \(check --db-root/);
    expect(r2.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('resumes after kill -9 and loses no finished execution', async () => {
    const store = join(tmp, 'killed.db');
    // Wait until some executions are committed, then kill without warning.
    let before = 0;
    const committed = (): number => {
      try {
        const db = new Database(store, { readonly: true, fileMustExist: true });
        const n = (db.prepare('SELECT count(*) AS n FROM executions').get() as { n: number }).n;
        db.close();
        return n;
      } catch {
        return 0;
      }
    };
    const signal = await runCliAndKill(['score', '--store', store, '--json', '--workers', '1'], () => (before = committed()) >= 1500, { timeoutMs: 20_000 });
    expect(signal).toBe('SIGKILL');
    expect(before).toBeGreaterThan(0);
    const resumed = await runCli(['score', '--store', store, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const out = JSON.parse(resumed.stdout) as ScoreJson;
    expect(out.execution.reused).toBeGreaterThanOrEqual(before);
    expect(out.execution.reused + out.execution.executed).toBe(out.execution.distinct);
    // Same figures as a run from scratch.
    const fresh = await runCli(['score', '--store', join(tmp, 'fresh.db'), '--json']);
    expect((JSON.parse(fresh.stdout) as ScoreJson).systems).toEqual(out.systems);
    // The bundled manifest turns on the one repair StructGPT's file needs, and the output says so.
    const structgpt = (JSON.parse(fresh.stdout) as { systems: { name: string; repairs?: Record<string, number> }[] }).systems.filter((s) => s.repairs);
    expect(structgpt).toEqual([expect.objectContaining({ name: 'structgpt', repairs: { 'restore-select': 1034 } })]);
    expect(fresh.stderr).toContain('sqlboard: structgpt: repair restore-select: "SELECT " prepended to 1034 predictions');
  });
});

describe('sqlboard score --flags', () => {
  it('adds accuracy on the clean (unflagged) subset', async () => {
    const flags = join(SPIDER, '..', 'salus', 'predictions', 'frontier_spider.csv');
    const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', join(tmp, 'flags.db'), '--json', '--system', `gold=${GOLD}`, '--flags', flags]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { systems: { clean: { n: number; correct: number; accuracy: number } }[]; flags: { flagged: number; clean: number } };
    // frontier_spider.csv flags 325 of the 1,034 tasks.
    expect(out.flags).toMatchObject({ flagged: 325, clean: 709 });
    expect(out.systems[0]!.clean).toEqual({ n: 709, correct: 709, accuracy: 1 });
  });

  it('writes a self-contained HTML report with one plotted mark per system', async () => {
    const html = join(tmp, 'score.html');
    const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', join(tmp, 'flags.db'), '--system', `gold=${GOLD}`, '--system', `ta=${TA}`, '--html', html]);
    expect(r.code, r.stderr).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page.match(/<circle[^>]*class="mark"/g)?.length).toBe(2);
    expect(page).not.toMatch(/(src|href)="https?:/);
  });
});

describe('sqlboard score on BIRD-format files', () => {
  it("uses BIRD's comparator and difficulty levels, and BIRD's official prediction JSON", async () => {
    // BIRD's databases are not available here; BIRD-format files over real Spider databases
    // exercise the same path: questions with question_id/SQL/difficulty, predictions keyed by position.
    const spider = JSON.parse(readFileSync(DEV, 'utf8')) as { db_id: string; query: string; question: string }[];
    const levels = ['simple', 'moderate', 'challenging'];
    const questions = spider.slice(0, 60).map((q, i) => ({
      question_id: 1000 + i,
      db_id: q.db_id,
      question: q.question,
      evidence: '',
      SQL: q.query,
      difficulty: levels[i % 3],
    }));
    const qFile = join(tmp, 'bird-questions.json');
    writeFileSync(qFile, JSON.stringify(questions));
    // Position keys; every fifth prediction wrong, one with DISTINCT added (BIRD keeps DISTINCT: sets).
    const preds: Record<string, string> = {};
    questions.forEach((q, i) => {
      const sql = i % 5 === 0 ? 'SELECT 1' : i === 1 ? q.SQL.replace(/^SELECT /i, 'SELECT DISTINCT ') : q.SQL;
      preds[String(i)] = `${sql}\t----- bird -----\t${q.db_id}`;
    });
    const pFile = join(tmp, 'bird-preds.json');
    writeFileSync(pFile, JSON.stringify(preds));
    const r = await runCli(['score', '--questions', qFile, '--db-root', DB, '--store', join(tmp, 'bird.db'), '--json', '--system', `x=${pFile}`]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as ScoreJson;
    expect(out.comparator).toBe('bird');
    expect(Object.keys(out.systems[0]!.byDifficulty)).toEqual(levels);
    expect(out.systems[0]!.correct).toBe(48);
    expect(out.systems[0]!.byDifficulty.simple).toEqual({ n: 20, correct: 16, accuracy: 0.8 });
  });
});
