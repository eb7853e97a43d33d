import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { score } from '../../src/api/score.js';
import { SPIDER } from '../helpers/cli.js';
import { writeSpiderSubset } from '../helpers/spider-subset.js';

interface Item {
  system: string;
  taskId: string;
  em?: number;
}

/** Exact match is kept in the run store (src/execution/em-store.ts): a re-run parses nothing again. */
describe('exact-match results in the run store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-em-store-'));
  const questions = join(dir, 'dev.json');
  const systems = writeSpiderSubset(dir, questions, 0, 80);
  const store = join(dir, 'store.db');
  const run = async (): Promise<{ json: Record<string, unknown>; items: Item[] }> => {
    const items = join(dir, `items-${Math.random()}.jsonl`);
    const r = await score({ questions, dbRoot: join(SPIDER, 'database'), tables: join(SPIDER, 'tables.json'), system: systems, metric: ['ex', 'em'], store, items });
    return { json: r.json, items: readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Item) };
  };

  it('are kept by the first run, reused by the next, and give the same scores', async () => {
    const first = await run();
    const db = new Database(store, { readonly: true });
    const kept = (db.prepare('SELECT count(*) AS n FROM exact_matches').get() as { n: number }).n;
    db.close();
    // Every distinct (task, prediction text) of the three systems, at most 3 per task.
    expect(kept).toBeGreaterThan(80);
    expect(kept).toBeLessThanOrEqual(240);
    const second = await run();
    const scores = (j: Record<string, unknown>): unknown => (j.systems as { name: string; metrics: unknown }[]).map((s) => [s.name, s.metrics]);
    expect(scores(second.json)).toEqual(scores(first.json));
    expect(second.items.map((i) => i.em)).toEqual(first.items.map((i) => i.em));

    // Proof that the second run read them: a kept result changed by hand is what a third run reports.
    const wrong = first.items.find((i) => i.em === 0)!;
    const rw = new Database(store);
    const rows = rw.prepare('SELECT key, item FROM exact_matches').all() as { key: string; item: string }[];
    for (const r of rows) rw.prepare('UPDATE exact_matches SET item = ? WHERE key = ?').run(JSON.stringify({ ...(JSON.parse(r.item) as object), em: 1 }), r.key);
    rw.close();
    const third = await run();
    expect(third.items.find((i) => i.system === wrong.system && i.taskId === wrong.taskId)!.em).toBe(1);
  }, 300_000);
});
