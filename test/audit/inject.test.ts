import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { injectErrors } from '../../src/audit/inject.js';
import { MUTATION_KINDS, mutations } from '../../src/audit/mutate.js';
import { normalizeResult, sameResult } from '../../src/audit/normalize.js';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { auc, precisionAtK, tiedShare } from '../../src/stats/ranking.js';
import { openRunStore } from '../../src/store/run-store.js';
import { ROOT } from '../helpers/cli.js';

describe('gold mutations for the injected-error benchmark', () => {
  const q = "SELECT DISTINCT T1.name FROM a AS T1 JOIN b AS T2 ON T1.id = T2.id WHERE T2.x BETWEEN 1 AND 5 AND T1.y = 3 ORDER BY T1.name LIMIT 3";

  it('makes one edit of each kind where it applies', () => {
    expect(mutations(q, 'operator')).toEqual([q.replace('T1.y = 3', 'T1.y != 3')]);
    // BETWEEN's AND is not a conjunct; the dropped one is `AND T1.y = 3`.
    expect(mutations(q, 'conjunct')).toEqual([q.replace(' AND T1.y = 3', ' ')]);
    expect(mutations(q, 'order')).toEqual([q.replace('ORDER BY T1.name', 'ORDER BY T1.name DESC')]);
    expect(mutations(q, 'limit')).toEqual([q.replace('LIMIT 3', 'LIMIT 4'), q.replace('LIMIT 3', 'LIMIT 2')]);
    expect(mutations(q, 'join')).toEqual([q.replace(' JOIN ', ' LEFT JOIN ')]);
    expect(mutations(q, 'distinct')).toEqual([q.replace('DISTINCT ', ' ')]);
    expect(mutations(q, 'literal')).toHaveLength(3);
    expect(mutations('SELECT max(age), count(name) FROM singer', 'aggregation')).toEqual(['SELECT MIN(age), count(name) FROM singer', 'SELECT max(age), count(DISTINCT name) FROM singer']);
    expect(mutations('SELECT name FROM singer WHERE age > 20', 'column', ['name', 'age', 'country'])).toEqual([
      'SELECT age FROM singer WHERE age > 20',
      'SELECT country FROM singer WHERE age > 20',
      'SELECT name FROM singer WHERE name > 20',
      'SELECT name FROM singer WHERE country > 20',
    ]);
    // Never the query itself, and nothing where a kind does not apply.
    for (const k of MUTATION_KINDS) expect(mutations('SELECT count(*) FROM singer', k, ['name'])).not.toContain('SELECT count(*) FROM singer');
    expect(mutations('SELECT count(*) FROM singer', 'conjunct')).toEqual([]);
  });

  const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-inject-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('plants the requested share of errors in the bundled Spider dev gold, each running and answering differently, the same for a seed', async () => {
    const bench = loadBenchmark(join(ROOT, 'data', 'spider', 'dev.json'));
    const small = { ...bench, tasks: bench.tasks.slice(0, 200) };
    const dbRoot = join(ROOT, 'data', 'spider', 'database');
    const store = openRunStore(join(tmp, 'store.db'));
    const engine = new ExecutionEngine({ dbRoot, store, workers: 2 });
    try {
      const a = await injectErrors(small, engine, { rate: 0.15, seed: 7, dbRoot });
      const b = await injectErrors(small, engine, { rate: 0.15, seed: 7, dbRoot });
      expect(a.injections).toHaveLength(30);
      expect(b.injections).toEqual(a.injections);
      expect(new Set(a.injections.map((x) => x.kind)).size).toBeGreaterThanOrEqual(5);
      const byId = new Map(small.tasks.map((t) => [t.id, t]));
      const reqs = a.injections.flatMap((x) => [{ dbId: byId.get(x.taskId)!.dbId, sql: x.original }, { dbId: byId.get(x.taskId)!.dbId, sql: x.mutated }]);
      const res = await engine.run(reqs);
      for (let i = 0; i < res.length; i += 2) {
        expect(res[i + 1]!.status).toBe('ok');
        expect(sameResult(normalizeResult(res[i]), normalizeResult(res[i + 1]))).toBe(false);
      }
      // Only the injected tasks' gold changed.
      const changed = a.bench.tasks.filter((t, i) => t.goldSql !== small.tasks[i]!.goldSql).map((t) => t.id);
      expect(changed.sort()).toEqual(a.injections.map((x) => x.taskId).sort());
    } finally {
      await engine.close();
      store.close();
    }
  }, 300_000);
});

describe('ranking statistics', () => {
  it('AUC counts ties half, precision at k shares the places of a tie at the cut', () => {
    const truth = [true, true, false, false, false];
    expect(auc([0.9, 0.8, 0.3, 0.2, 0.1], truth)).toBe(1);
    expect(auc([0.1, 0.2, 0.3, 0.8, 0.9], truth)).toBe(0);
    expect(auc([0.5, 0.5, 0.5, 0.5, 0.5], truth)).toBe(0.5);
    // Pairs won: 0.9 beats two and ties one (2.5), 0.5 beats two and loses one (2): 4.5 of 6.
    expect(auc([0.9, 0.5, 0.9, 0.1, 0.1], truth)).toBe(0.75);
    expect(precisionAtK([0.9, 0.8, 0.3, 0.2, 0.1], truth, 2)).toBe(1);
    expect(precisionAtK([0.5, 0.5, 0.5, 0.5, 0.5], truth, 2)).toBeCloseTo(0.4, 12);
    expect(tiedShare([1, 1, 2, 3])).toBe(0.5);
  });
});
