import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { score } from '../../src/api/score.js';
import { spiderHardness } from '../../src/sql/spider-hardness.js';
import { SPIDER } from '../helpers/cli.js';
import { writeSpiderSubset } from '../helpers/spider-subset.js';

interface Item {
  system: string;
  taskId: string;
  difficulty: string;
}

/** Spider hardness is kept in the run store (src/execution/hardness-store.ts): a re-run parses no gold for it. */
describe('Spider hardness levels in the run store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-hardness-store-'));
  const questions = join(dir, 'dev.json');
  const systems = writeSpiderSubset(dir, questions, 0, 60);
  const golds = (JSON.parse(readFileSync(questions, 'utf8')) as { query: string }[]).map((q) => q.query);
  const store = join(dir, 'store.db');
  const run = async (): Promise<{ json: Record<string, unknown>; items: Item[] }> => {
    const items = join(dir, `items-${Math.random()}.jsonl`);
    const r = await score({ questions, dbRoot: join(SPIDER, 'database'), system: systems, metric: ['ex'], store, items });
    return { json: r.json, items: readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Item) };
  };
  const kept = (): { key: string; level: string }[] => {
    const db = new Database(store, { readonly: true });
    try {
      return db.prepare('SELECT key, level FROM spider_hardness ORDER BY key').all() as { key: string; level: string }[];
    } finally {
      db.close();
    }
  };
  const byDifficulty = (j: Record<string, unknown>): unknown => (j.systems as { name: string; byDifficulty: unknown }[]).map((s) => [s.name, s.byDifficulty]);

  it('are kept by the first run (one per distinct gold), reused by the next, and are the computed levels', async () => {
    const first = await run();
    // Every item's level is the one the parser computes from its gold.
    expect(first.items.map((i) => i.difficulty)).toEqual(systems.flatMap(() => golds.map((g) => spiderHardness(g))));
    const rows = kept();
    expect(rows.length).toBe(new Set(golds).size);
    expect(new Set(rows.map((r) => r.level))).toEqual(new Set(golds.map((g) => spiderHardness(g))));
    const second = await run();
    expect(byDifficulty(second.json)).toEqual(byDifficulty(first.json));
    expect(second.items).toEqual(first.items);
    expect(kept()).toEqual(rows);

    // Proof that a re-run reads them: every kept level changed by hand is what the next run reports.
    const rw = new Database(store);
    rw.prepare("UPDATE spider_hardness SET level = 'extra'").run();
    rw.close();
    const third = await run();
    expect(third.items.every((i) => i.difficulty === 'extra')).toBe(true);

    // A level this version does not know (a damaged row) is computed again, and kept anew.
    const damage = new Database(store);
    damage.prepare("UPDATE spider_hardness SET level = 'impossible'").run();
    damage.close();
    const fourth = await run();
    expect(fourth.items).toEqual(first.items);
    expect(kept()).toEqual(rows);
  }, 300_000);
});
