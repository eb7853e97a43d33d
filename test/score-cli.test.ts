import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { devGoldFile, runCli, SPIDER, TAB_SYSTEM } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-score-'));
const DEV = join(SPIDER, 'dev.json');
const DB = join(SPIDER, 'database');
const GOLD = devGoldFile();
// ChatGPT zero-shot (Chang 2023), bundled, in dev_gold.sql's SQL<TAB>db_id form.
const TA = TAB_SYSTEM.file;
// Run stores shared by the tests that do not count executions, so that the 1,034 golds run once or
// twice in this file rather than once per test (a test alone just executes what it needs).
const GOLD_STORE = join(tmp, 'gold.db');
const TA_STORE = join(tmp, 'ta.db');

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
    const store = GOLD_STORE;
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

  it('scores a published system under both comparators; BIRD keeps DISTINCT, so it scores lower here (official counts: test/fidelity/)', async () => {
    const store = TA_STORE;
    const items = join(tmp, 'ta-items.jsonl');
    const spider = await score(['--system', `chang=${TA}`, '--items', items], store);
    const bird = await score(['--system', `chang=${TA}`, '--comparator', 'bird'], store);
    expect(bird.systems[0]!.correct).toBeLessThan(spider.systems[0]!.correct);
    expect(bird.systems[0]!.accuracy).toBeCloseTo(bird.systems[0]!.correct / 1034, 12);
    // The second run executed only what the DISTINCT-free Spider run had not.
    expect(bird.execution.reused).toBeGreaterThan(1000);
    const lines = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1034);
    // Spider questions get exact match by default (official evaluation.py: 1 on this item).
    expect(lines[0]).toEqual({ system: 'chang', taskId: '0', dbId: 'concert_singer', correct: true, difficulty: 'easy', em: 1 });
    const failed = lines.filter((l) => l.predError !== undefined);
    expect(failed.length).toBe(spider.systems[0]!.execErrors);
    expect(typeof failed[0]!.predError).toBe('string');
  });

  it('re-running recomputes nothing', async () => {
    const store = join(tmp, 'rerun.db');
    const first = await score(['--system', `chang=${TA}`], store);
    expect(first.execution.executed).toBe(first.execution.distinct);
    const second = await score(['--system', `chang=${TA}`], store);
    expect(second.execution).toMatchObject({ executed: 0, reused: first.execution.distinct });
    expect(second.systems).toEqual(first.systems);
  });

  it('reports a missing prediction as missing and counts it wrong', async () => {
    const f = join(tmp, 'one.json');
    writeFileSync(f, JSON.stringify({ '0': 'SELECT count(*) FROM singer\t----- bird -----\tconcert_singer' }));
    const out = await score(['--system', `one=${f}`], GOLD_STORE);
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
});

describe('sqlboard score --flags', () => {
  it('adds accuracy on the clean (unflagged) subset', async () => {
    const flags = join(SPIDER, 'audit', 'flags.csv');
    const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', GOLD_STORE, '--json', '--system', `gold=${GOLD}`, '--flags', flags]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { systems: { clean: { n: number; correct: number; accuracy: number } }[]; flags: { flagged: number; clean: number } };
    // The bundled audit flags 252 of the 1,034 tasks (data/spider/audit/README.md).
    expect(out.flags).toMatchObject({ flagged: 252, clean: 782 });
    expect(out.systems[0]!.clean).toMatchObject({ n: 782, correct: 782, accuracy: 1 });
    // The gold scores itself perfectly at every level; the levels' clean tasks add up to the 782.
    const byLevel = Object.values((out.systems[0]!.clean as unknown as { byDifficulty: Record<string, { n: number; correct: number }> }).byDifficulty);
    expect(byLevel.reduce((k, b) => k + b.n, 0)).toBe(782);
    for (const b of byLevel) expect(b.correct).toBe(b.n);
  });

  it('writes a self-contained HTML report with one plotted mark per system', async () => {
    const html = join(tmp, 'score.html');
    const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', TA_STORE, '--system', `gold=${GOLD}`, '--system', `chang=${TA}`, '--html', html]);
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
