import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, SPIDER } from '../helpers/cli.js';
import { SHARED_SPIDER } from './helpers/shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-score-ta-'));
const DEV = join(SPIDER, 'dev.json');
const DB = join(SPIDER, 'database');
const TA = join(SHARED_SPIDER, 'predictions', 'ta-sql', 'spider_predict_dev.sql');

interface ScoreJson {
  systems: { correct: number; accuracy: number }[];
  execution: { reused: number };
}

async function score(args: string[], store: string): Promise<ScoreJson> {
  const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', store, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as ScoreJson;
}

describe('sqlboard score on Spider dev, TA-SQL (not bundled)', () => {
  it("scores TA-SQL's predictions as the official evaluators do", async () => {
    const store = join(tmp, 'ta.db');
    const spider = await score(['--system', `ta-sql=${TA}`, '--items', join(tmp, 'ta-items.jsonl')], store);
    // test-suite-sql-eval exec mode on these databases (verified item by item against a Python run
    // of the official algorithm): 885/1034. Eight wta_1 `rankings` items are empty here on both sides.
    expect(spider.systems[0]!.correct).toBe(885);
    const bird = await score(['--system', `ta-sql=${TA}`, '--comparator', 'bird'], store);
    expect(bird.systems[0]!.correct).toBe(827);
    expect(bird.systems[0]!.accuracy.toFixed(4)).toBe('0.7998');
    const lines = readFileSync(join(tmp, 'ta-items.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    // Spider questions get exact match by default (official evaluation.py: 1 on this item).
    expect(lines[0]).toEqual({ system: 'ta-sql', taskId: '0', dbId: 'concert_singer', correct: true, difficulty: 'easy', em: 1 });
  });
});
