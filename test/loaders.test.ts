import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { taskDifficulty } from '../src/execution/ex-run.js';
import { InputFileError } from '../src/errors.js';
import { bundledSpider } from '../src/benchmark/bundled.js';
import { devGoldFile, SPIDER } from './helpers/cli.js';

const spider = loadBenchmark(join(SPIDER, 'dev.json'));
const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-load-'));
const write = (name: string, text: string): string => {
  const f = join(tmp, name);
  writeFileSync(f, text);
  return f;
};
const P = join(SPIDER, 'predictions');

describe('questions', () => {
  it('loads Spider (id = position) and BIRD (id = question_id) formats', () => {
    expect(spider.format).toBe('spider');
    expect(spider.tasks).toHaveLength(1034);
    expect(spider.tasks[5]!.id).toBe('5');
    expect(loadBenchmark(bundledSpider().questions).tasks).toEqual(spider.tasks);
    // BIRD dev's first two records, as its dev.json writes them (the real file: test/fidelity/loaders-shared).
    const bird = loadBenchmark(write('bird-dev.json', JSON.stringify([
      { question_id: 0, db_id: 'california_schools', question: 'What is the highest eligible free rate?', evidence: 'rate = count / enrollment', SQL: 'SELECT 1', difficulty: 'simple' },
      { question_id: 1, db_id: 'california_schools', question: 'Please list the lowest three rates', evidence: '', SQL: 'SELECT 2', difficulty: 'moderate' },
    ])));
    expect(bird.format).toBe('bird');
    expect(bird.tasks).toHaveLength(2);
    expect(bird.tasks[0]).toMatchObject({ id: '0', dbId: 'california_schools', difficulty: 'simple', goldSql: 'SELECT 1' });
    expect(bird.tasks[1]).toMatchObject({ id: '1', difficulty: 'moderate' });
  });
  it("reads the official gold format (dev_gold.sql: SQL<TAB>db_id) as questions, with Spider's hardness", () => {
    const gold = loadBenchmark(devGoldFile());
    expect(gold.format).toBe('spider');
    expect(gold.tasks).toHaveLength(1034);
    expect(gold.tasks.map((t) => t.dbId)).toEqual(spider.tasks.map((t) => t.dbId));
    expect(gold.tasks[0]).toMatchObject({ id: '0', dbId: 'concert_singer', goldSql: 'SELECT count(*) FROM singer', question: '' });
    const levels = (b: typeof spider) => b.tasks.reduce<Record<string, number>>((m, t) => ((m[taskDifficulty(b, t)] = (m[taskDifficulty(b, t)] ?? 0) + 1), m), {});
    // The official script's counts for Spider dev, computed from the gold file's SQL alone.
    expect(levels(gold)).toEqual({ easy: 248, medium: 446, hard: 174, extra: 166 });
    const bad = write('gold-bad.sql', 'SELECT 1\tconcert_singer\n\nSELECT 2\n');
    expect(() => loadBenchmark(bad)).toThrow(/gold-bad\.sql:3: expected JSON questions, or the official gold format/);
  });
  it('names the file and line of malformed input', () => {
    const f = write('bad.json', '[\n {"db_id": "a", "query": "SELECT 1", "question": "q"},\n {"db_id": "a", "query": 5}\n]');
    expect(() => loadBenchmark(f)).toThrow(/bad\.json:3: question 1: gold SQL \("query"\) must be a string/);
    const g = write('broken.json', '[\n{"db_id": "a",\n');
    expect(() => loadBenchmark(g)).toThrow(InputFileError);
  });
});

describe('predictions in the formats found in the wild', () => {
  it('reads Spider text with CRLF; a TAB inside the SQL ends it, as in the official readers, unless --repair keep-tabs (C3)', () => {
    const p = loadPredictions(join(P, 'c3', 'predicted_sql.txt'), spider, 'c3');
    expect(p.byTask.size).toBe(1034);
    expect(p.byTask.get('0')!.sql).toBe('SELECT COUNT(*) FROM singer;');
    expect(p.byTask.get('770')!.sql).toBe('SELECT COUNT(DISTINCT language) FROM countrylanguage WHERE countrycode IN (');
    expect(p.repairs).toEqual({});
    expect(p.notes).toEqual([
      '1 lines have a TAB inside the SQL; as in the official readers only the text before the first TAB is the prediction (--repair keep-tabs keeps the rest)',
    ]);
    const kept = loadPredictions(join(P, 'c3', 'predicted_sql.txt'), spider, 'c3', { repairs: ['keep-tabs'] });
    expect(kept.byTask.get('770')!.sql).toContain('\tSELECT code \tFROM country');
    expect(kept.byTask.get('770')!.sql).not.toMatch(/\r/);
    expect(kept.repairs).toEqual({ 'keep-tabs': 1 });
    expect(kept.notes).toEqual(['repair keep-tabs: TABs inside the SQL kept on 1 lines']);
  });
  it('reads SQL<TAB>db_id lines and a first line of spaces without a final newline (DAIL-SQL)', () => {
    const chang = loadPredictions(join(P, 'chatgpt-zero-shot-chang2023', 'pred.sql'), spider, 'chang');
    expect(chang.byTask.get('0')).toMatchObject({ sql: 'select count(*) from singer', dbId: 'concert_singer' });
    const dail = loadPredictions(join(P, 'dail-sql', 'DAIL-SQL+GPT-4+self-consistency.txt'), spider, 'dail');
    expect(dail.byTask.get('0')!.sql).toBe('SELECT count(*) FROM singer');
    expect(dail.byTask.size).toBe(1034);
  });
  it('reads CSV with a header and multi-line quoted cells (DIN-SQL)', () => {
    const p = loadPredictions(join(P, 'din-sql', 'DIN-SQL.csv'), spider, 'din');
    expect(p.format).toBe('csv');
    expect(p.byTask.get('0')).toMatchObject({ sql: 'SELECT COUNT(*) FROM singer', dbId: 'concert_singer' });
  });
  it('restores the SELECT that JSON/JSONL generators left out only when asked, and counts it (StructGPT, Liu et al.)', () => {
    const asIs = loadPredictions(join(P, 'structgpt', 'output_wo_icl_v1.jsonl'), spider, 'structgpt');
    expect(asIs.byTask.get('0')!.sql).toBe('COUNT(*) FROM singer;');
    expect(asIs.repairs).toEqual({});
    expect(asIs.notes).toEqual([
      '1034 predictions start with neither a statement keyword nor a comment: 1034 read as a SELECT list without its keyword (a "SELECT " left out?), e.g. task 0: "COUNT(*) FROM singer;"; they run as given, as in the official evaluators (--repair restore-select prepends "SELECT " to all 1034)',
    ]);
    const s = loadPredictions(join(P, 'structgpt', 'output_wo_icl_v1.jsonl'), spider, 'structgpt', { repairs: ['restore-select'] });
    expect(s.byTask.get('0')!.sql).toBe('SELECT COUNT(*) FROM singer;');
    expect(s.repairs).toEqual({ 'restore-select': 1034 });
    expect(s.notes).toEqual(['repair restore-select: "SELECT " prepended to 1034 predictions: 1034 read as a SELECT list without its keyword (a "SELECT " left out?), e.g. task 0: "COUNT(*) FROM singer;"']);
  });
  it('never takes text that begins with a comment, WITH, VALUES or ( for a SELECT without its keyword', () => {
    const sqls = ['-- Your SQL query\nSELECT 1', '/* plan */ SELECT 1', 'WITH t AS (SELECT 1) SELECT * FROM t', 'VALUES (1)', '(SELECT 1)', '  \n-- x\nSELECT 2'];
    const f = write('commented.json', JSON.stringify(sqls.map((sql, i) => ({ question_id: i, predicted_sql: sql }))));
    const p = loadPredictions(f, spider, 'c', { repairs: ['restore-select'] });
    expect([...p.byTask.values()].map((x) => x.sql)).toEqual(sqls);
    expect(p.repairs).toEqual({ 'restore-select': 0 });
    expect(p.notes).toEqual([]);
  });
  it('counts a task without a prediction as missing, not as an error', () => {
    const f = write('partial.json', JSON.stringify({ '0': 'SELECT 1\t----- bird -----\tconcert_singer' }));
    const p = loadPredictions(f, spider, 'partial');
    expect(p.byTask.size).toBe(1);
  });
});

describe('misaligned prediction files are errors that name file and line', () => {
  it('too few lines', () => {
    const f = write('short.sql', 'SELECT 1\nSELECT 2\n');
    expect(() => loadPredictions(f, spider, 's')).toThrow(/short\.sql:3: 2 prediction lines, but the questions file .* has 1034/);
  });
  it('a db_id that does not match the question', () => {
    const lines = spider.tasks.map((t) => `SELECT 1\t${t.dbId}`);
    lines[7] = 'SELECT 1\tworld_1';
    const f = write('wrongdb.sql', lines.join('\n'));
    expect(() => loadPredictions(f, spider, 's')).toThrow(/wrongdb\.sql:8: prediction for question 7 names database "world_1" but the question is on "concert_singer"/);
  });
  it('non-string SQL and unknown ids', () => {
    const f = write('nonstring.json', '[\n{"question_id": 0, "predicted_sql": "SELECT 1"},\n{"question_id": 1, "predicted_sql": 42}\n]');
    expect(() => loadPredictions(f, spider, 's')).toThrow(/nonstring\.json:3: record 1: "predicted_sql" must be a string, got number/);
    const g = write('unknown.json', '[{"question_id": 5000, "predicted_sql": "SELECT 1"}]');
    expect(() => loadPredictions(g, spider, 's')).toThrow(/question_id 5000 is not in the questions file/);
    const h = write('badkey.json', '{\n"0": "SELECT 1\\t----- bird -----\\tconcert_singer",\n"abc": "SELECT 2"\n}');
    expect(() => loadPredictions(h, spider, 's')).toThrow(/badkey\.json:3: key "abc" is not a question position 0\.\.1033/);
  });
});
