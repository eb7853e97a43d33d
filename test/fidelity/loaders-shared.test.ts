import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import { bundledSpider } from '../../src/benchmark/bundled.js';
import { SHARED, SHARED_SPIDER } from './helpers/shared-data.js';

/** The loaders on the published files that are not bundled (test/loaders.test.ts covers the bundled ones). */
const spider = loadBenchmark(join(SHARED_SPIDER, 'dev.json'));

describe('questions (published files)', () => {
  it('loads BIRD dev (id = question_id)', () => {
    const bird = loadBenchmark(join(SHARED, 'bird', 'dev.json'));
    expect(bird.format).toBe('bird');
    expect(bird.tasks).toHaveLength(1534);
    expect(bird.tasks[0]).toMatchObject({ id: '0', dbId: 'california_schools', difficulty: 'simple' });
  });
  it("bundles Spider dev's tasks exactly: the bundled dev.json keeps only the fields sqlboard reads", () => {
    const bundled = loadBenchmark(bundledSpider().questions);
    expect(bundled.tasks).toHaveLength(1034);
    expect(bundled.tasks).toEqual(spider.tasks);
  });
  it('keeps mini-dev questions whose question_id repeats, under distinct ids, and says so', () => {
    const mini = loadBenchmark(join(SHARED, 'bird', 'mini_dev', 'mini_dev_sqlite.json'));
    expect(mini.tasks).toHaveLength(500);
    expect(new Set(mini.tasks.map((t) => t.id)).size).toBe(500);
    expect(mini.notes?.join('\n')).toMatch(/question_id 137 repeats/);
  });
});

describe('predictions (published files)', () => {
  it('reads SQL<TAB>db_id lines (TA-SQL)', () => {
    const ta = loadPredictions(join(SHARED_SPIDER, 'predictions', 'ta-sql', 'spider_predict_dev.sql'), spider, 'ta');
    expect(ta.byTask.get('0')).toMatchObject({ sql: 'SELECT COUNT(*) FROM singer', dbId: 'concert_singer' });
  });
  it('restores the SELECT that JSON generators left out when asked (Liu et al.)', () => {
    const l = loadPredictions(join(SHARED_SPIDER, 'predictions', 'chatgpt-zero-shot-liu2023', 'predict.json'), spider, 'liu', { repairs: ['restore-select'] });
    expect(l.byTask.get('0')!.sql).toBe('SELECT COUNT(*) FROM singer');
  });
  it('never prepends SELECT to a ROSE mini-dev system whose SQL opens with a comment, even with the repair on', () => {
    const mini = loadBenchmark(join(SHARED, 'rose', 'data', 'mini_dev.json'));
    const omni = loadPredictions(join(SHARED, 'rose', 'data', 'method_results', 'mini_dev', 'omni-32b-result.json'), mini, 'omni', { repairs: ['restore-select'] });
    const commented = [...omni.byTask.values()].filter((x) => x.sql.startsWith('--'));
    expect(commented.length).toBeGreaterThan(20);
    expect(omni.repairs).toEqual({ 'restore-select': 0 });
  });
  it("reads BIRD's official JSON and ROSE-style records with question_id", () => {
    const mini = loadBenchmark(join(SHARED, 'bird', 'mini_dev', 'mini_dev_sqlite.json'));
    const p = loadPredictions(join(SHARED, 'bird', 'predictions', 'mini_dev', 'TA_output', 'predict_mini_dev_gpt-4-o_cot_SQLite.json'), mini, 'gpt-4o');
    expect(p.format).toBe('bird-json');
    expect(p.byTask.size).toBe(500);
    const first = p.byTask.get(mini.tasks[0]!.id)!;
    expect(first.dbId).toBe(mini.tasks[0]!.dbId);
    expect(first.sql).not.toContain('----- bird -----');
    const dev = loadBenchmark(join(SHARED, 'rose', 'data', 'dev.json'));
    const r = loadPredictions(join(SHARED, 'rose', 'data', 'method_results', 'dev', 'chess-result.json'), dev, 'chess');
    expect(r.format).toBe('json-records');
    expect(r.byTask.size).toBeGreaterThan(0);
  });
});
