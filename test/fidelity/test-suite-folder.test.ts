import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import type { Benchmark, PredictionSet } from '../../src/benchmark/types.js';
import { spiderExecutedSql } from '../../src/execution/compare-spider.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { runEx, type ExRun } from '../../src/execution/ex-run.js';
import { withoutUnusableDatabases } from '../../src/execution/skip-databases.js';
import { scoreJson, scoreReport } from '../../src/report/score-report.js';
import { openRunStore } from '../../src/store/run-store.js';
import { SHARED_SPIDER as SPIDER } from './helpers/shared-data.js';

/**
 * test-suite-sql-eval's database folder rule ("test-suite accuracy"): gold and prediction run on
 * every file in <db_root>/<db_id>/ whose name contains ".sqlite", and the prediction is correct
 * only if the results match on all of them. The folder is Spider's concert_singer plus a copy
 * with rows added and changed (ties at the extremes, a new stadium, concert and singer), as the
 * distilled test-suite databases do; the verdicts are checked item by item against a python3 run
 * of that rule (our own script below: its file listing, errors="ignore" decoding, per-file
 * result comparison, all files required), fed the texts sqlboard executes (whose single-file
 * verdicts test/fidelity/spider-official-verdicts.test.ts checks against the official program).
 */
const PYTHON = String.raw`
import itertools, json, os, sqlite3, sys
from collections import Counter

def run(path, sql):
    conn = sqlite3.connect(path)
    conn.text_factory = lambda b: b.decode(errors='ignore')
    try:
        return conn.execute(sql).fetchall()
    except Exception:
        return None
    finally:
        conn.close()

def sort_key(v):
    return str(v) + str(type(v))

def same(gold, pred, order_matters):
    if not gold and not pred:
        return True
    if len(gold) != len(pred) or len(gold[0]) != len(pred[0]):
        return False
    # Necessary: the rows with their cells sorted agree (as a list if order matters, else as a set).
    g_sorted = [tuple(sorted(r, key=sort_key)) for r in gold]
    p_sorted = [tuple(sorted(r, key=sort_key)) for r in pred]
    if (g_sorted != p_sorted) if order_matters else (set(g_sorted) != set(p_sorted)):
        return False
    # Then some order of the prediction's columns gives the gold's rows (as a multiset unless order matters).
    for perm in itertools.permutations(range(len(gold[0]))):
        moved = [tuple(r[i] for i in perm) for r in pred]
        if (gold == moved) if order_matters else (Counter(gold) == Counter(moved)):
            return True
    return False

job = json.load(sys.stdin)
verdicts = []
for item in job['items']:
    folder = os.path.join(job['root'], item['db'])
    files = [os.path.join(folder, n) for n in os.listdir(folder) if '.sqlite' in n]
    if item['pred'] is None or item['gold'] is None:
        verdicts.append(False)
        continue
    order_matters = 'order by' in item['gold'].lower()
    ok = True
    for f in files:
        g, p = run(f, item['gold']), run(f, item['pred'])
        if g is None or p is None or not same(g, p, order_matters):
            ok = False
            break
    verdicts.append(ok)
print(json.dumps({'files': sorted(n for n in os.listdir(os.path.join(job['root'], job['items'][0]['db'])) if '.sqlite' in n), 'verdicts': verdicts}))
`;

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-suite-'));
const DB = 'concert_singer';
const ORIGINAL = join(SPIDER, 'database', DB, `${DB}.sqlite`);

/** A copy of the database with `sql` applied. */
function variant(name: string, sql: string): string {
  const file = join(tmp, name);
  copyFileSync(ORIGINAL, file);
  const db = new Database(file);
  db.exec(sql);
  db.close();
  return file;
}
const altered = variant(
  'altered.sqlite',
  `INSERT INTO singer VALUES (7, 'Tie Singer', 'France', 'Song', '2016', 52, 'T');
   INSERT INTO singer VALUES (8, 'Young Singer', 'Netherlands', 'Hey', '2003', 25, 'F');
   UPDATE singer SET Age = 41 WHERE Singer_ID = 2;
   INSERT INTO stadium VALUES (11, 'Alloa', 'Big', 52500, 1000, 10, 100);
   INSERT INTO concert VALUES (7, 'Extra', 'Free', '11', '2014');
   INSERT INTO singer_in_concert VALUES (7, '7');`,
);
// Not named *.sqlite*: the official rule ignores it, so it must change nothing (it would: it is empty).
const ignored = variant('ignored.db', 'DELETE FROM singer_in_concert; DELETE FROM concert;');

/** A --db-root holding <DB>/ with the given files (name → source). */
function root(name: string, files: Record<string, string>): string {
  mkdirSync(join(tmp, name, DB), { recursive: true });
  for (const [file, from] of Object.entries(files)) copyFileSync(from, join(tmp, name, DB, file));
  return join(tmp, name);
}
const single = root('single', { [`${DB}.sqlite`]: ORIGINAL });
const suite = root('suite', { [`${DB}.sqlite`]: ORIGINAL, [`${DB}_1.sqlite`]: altered, [`${DB}.db`]: ignored });
writeFileSync(join(suite, DB, 'README.txt'), 'not a database, and not named .sqlite: ignored\n');
// A third file byte-identical to the first: executions are keyed by the file's hash, so it costs nothing.
const suite3 = root('suite3', { [`${DB}.sqlite`]: ORIGINAL, [`${DB}_1.sqlite`]: altered, [`${DB}_2.sqlite`]: ORIGINAL });

const full = loadBenchmark(join(SPIDER, 'dev.json'));
const bench: Benchmark = { ...full, tasks: full.tasks.filter((t) => t.dbId === DB) };
// Every file of the official verdicts (23 systems' predictions and the gold itself).
const FILES = [
  ...new Set(
    readFileSync(join(SPIDER, 'official-verdicts', 'spider.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => (JSON.parse(l) as { file: string }).file),
  ),
];
const systems: PredictionSet[] = FILES.map((f) => loadPredictions(join(SPIDER, f), full, f));

// One run store for every folder: each file's executions must be kept apart by its own key.
const store = openRunStore(join(tmp, 'store.db'));
afterAll(() => store.close());

async function score(dbRoot: string): Promise<ExRun> {
  const engine = new ExecutionEngine({ dbRoot, store, workers: 1 });
  try {
    return await runEx(bench, systems, engine, { comparator: 'spider' });
  } finally {
    await engine.close();
  }
}

/** The python3 reference's verdicts for every (system, task), in run.items' order. */
function pythonVerdicts(dbRoot: string): { files: string[]; verdicts: Map<string, boolean> } {
  const keys: string[] = [];
  const items = systems.flatMap((s) =>
    bench.tasks.map((t) => {
      keys.push(`${s.system} ${t.id}`);
      const p = s.byTask.get(t.id);
      return { db: t.dbId, gold: spiderExecutedSql(t.goldSql, false, false) ?? null, pred: p ? (spiderExecutedSql(p.sql, false, true) ?? null) : null };
    }),
  );
  const out = JSON.parse(execFileSync('python3', ['-c', PYTHON], { input: JSON.stringify({ root: dbRoot, items }), encoding: 'utf8', maxBuffer: 1 << 26 })) as {
    files: string[];
    verdicts: boolean[];
  };
  return { files: out.files, verdicts: new Map(keys.map((k, i) => [k, out.verdicts[i]!])) };
}

const verdicts = (run: ExRun): Map<string, boolean | null> => new Map(run.items.map((i) => [`${i.system} ${i.taskId}`, i.correct]));
const correct = (run: ExRun): Record<string, number> => Object.fromEntries(run.systems.map((s) => [s.name, s.correct]));

describe('test-suite accuracy over a database folder', () => {
  it('runs gold and prediction on every .sqlite file of the folder and counts an item correct only if all match, as a python3 run of the rule', { timeout: 600_000 }, async () => {
    const one = await score(single);
    const both = await score(suite);
    const py = pythonVerdicts(suite);
    expect(py.files).toEqual([`${DB}.sqlite`, `${DB}_1.sqlite`]);
    const got = verdicts(both);
    expect(got.size).toBe(FILES.length * bench.tasks.length);
    const differ = [...got].filter(([k, v]) => py.verdicts.get(k) !== v).map(([k, v]) => `${k}: python ${py.verdicts.get(k)}, sqlboard ${v}`);
    expect(differ).toEqual([]);
    // The single-file run is plain EX, also as python3 computes it on the single folder.
    const pyOne = pythonVerdicts(single);
    expect([...verdicts(one)].filter(([k, v]) => pyOne.verdicts.get(k) !== v)).toEqual([]);

    // Test-suite accuracy falls below plain EX for several real systems, on exactly the items where a
    // prediction matches on the database file but not on the altered one.
    const [c1, c2] = [correct(one), correct(both)];
    const fell = FILES.filter((f) => c2[f]! < c1[f]!);
    for (const f of FILES) expect(c2[f]!, f).toBeLessThanOrEqual(c1[f]!);
    expect(c2['dev_gold.sql']).toBe(bench.tasks.length);
    expect(fell.length).toBeGreaterThanOrEqual(4);
    const v1 = verdicts(one);
    const lost = [...v1].filter(([k, v]) => v && !got.get(k)).map(([k]) => k);
    expect(lost.length).toBe(FILES.reduce((n, f) => n + c1[f]! - c2[f]!, 0));
    expect(lost.every((k) => pyOne.verdicts.get(k) === true && py.verdicts.get(k) === false)).toBe(true);
    expect(both.testSuiteDatabases).toEqual([{ dbId: DB, files: 2 }]);
    expect(one.testSuiteDatabases).toBeUndefined();
    // The output says so: a note under the table and --json's testSuiteDatabases.
    expect(scoreReport(both, 'dev.json', undefined).sections[0]!.notes!.join('\n')).toContain('Test-suite databases (as test-suite-sql-eval): concert_singer 2 .sqlite files');
    expect(scoreJson(both, 'dev.json', undefined)).toMatchObject({ testSuiteDatabases: [{ dbId: DB, files: 2 }] });
    expect(scoreJson(one, 'dev.json', undefined)).not.toHaveProperty('testSuiteDatabases');

    // The shared run store kept each file's results apart: re-running the single folder after the
    // suite (everything now reused) gives plain EX again, not the suite's verdicts.
    const again = await score(single);
    expect(again.execution.executed).toBe(0);
    expect(verdicts(again)).toEqual(v1);

    // A third file identical to the first changes no verdict and costs no execution.
    const three = await score(suite3);
    expect(three.items).toEqual(both.items);
    expect(three.execution.executed).toBe(0);
  });

  it('refuses a folder whose file named .sqlite is no SQLite database (officially the gold fails there and the evaluator stops)', async () => {
    const bad = root('bad', { [`${DB}.sqlite`]: ORIGINAL });
    mkdirSync(join(bad, 'pets_1'));
    copyFileSync(join(SPIDER, 'database', 'pets_1', 'pets_1.sqlite'), join(bad, 'pets_1', 'pets_1.sqlite'));
    writeFileSync(join(bad, DB, `${DB}.sqlite-journal`), 'not a database');
    const engine = new ExecutionEngine({ dbRoot: bad, workers: 1 });
    try {
      await expect(runEx(bench, systems.slice(0, 1), engine, { comparator: 'spider' })).rejects.toThrow(/concert_singer\.sqlite-journal is not a SQLite 3 database.*test-suite database/);
      // BIRD's evaluator opens the database file alone.
      const run = await runEx(bench, systems.slice(0, 1), engine, { comparator: 'bird' });
      expect(run.items).toHaveLength(bench.tasks.length);
      // --skip-missing-db leaves that folder's tasks out under spider only.
      const mixed: Benchmark = { ...full, tasks: full.tasks.filter((t) => t.dbId === DB || t.dbId === 'pets_1') };
      expect(withoutUnusableDatabases(mixed, engine, false).skipped).toEqual([]);
      const spiderSkip = withoutUnusableDatabases(mixed, engine, true);
      expect(spiderSkip.skipped).toEqual([expect.objectContaining({ dbId: DB, tasks: bench.tasks.length })]);
      expect(spiderSkip.bench.tasks.map((t) => t.dbId)).toEqual(mixed.tasks.filter((t) => t.dbId === 'pets_1').map((t) => t.dbId));
    } finally {
      await engine.close();
    }
  });
});
