import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import type { Benchmark } from '../../src/benchmark/types.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { runEx } from '../../src/execution/ex-run.js';
import { openRunStore } from '../../src/store/run-store.js';
import { SHARED } from './helpers/shared-data.js';

/**
 * BIRD on real BIRD data: the mini-dev superhero questions on the official superhero database,
 * scored for the 13 mini-dev baselines and the 19 systems of ROSE's mini-dev results. Every
 * verdict is checked against a python3 run of BIRD's rule, written here from its definition and
 * reading the files itself: Python's sqlite3, prediction then gold on one connection, fetchall,
 * `set(pred) == set(gold)`, any exception 0. The baselines' verdicts are also checked against the
 * official program's own (bird/official-verdicts).
 */
const BIRD = join(SHARED, 'bird');
const ROSE = join(SHARED, 'rose', 'data');
const DB_ROOT = join(BIRD, 'database');

const PYTHON = String.raw`
import json, sqlite3, sys
db = sys.argv[1]
out = []
for pred, gold in json.load(sys.stdin):
    try:
        conn = sqlite3.connect(db)
        cur = conn.cursor()
        cur.execute(pred)
        p = cur.fetchall()
        cur.execute(gold)
        g = cur.fetchall()
        out.append(1 if set(p) == set(g) else 0)
    except Exception:
        out.append(0)
    finally:
        conn.close()
print(json.dumps(out))
`;

function pythonVerdicts(pairs: [string, string][]): number[] {
  const input = JSON.stringify(pairs);
  const text = execFileSync('python3', ['-c', PYTHON, join(DB_ROOT, 'superhero', 'superhero.sqlite')], { input, encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(text) as number[];
}

const superhero = (b: Benchmark): Benchmark => ({ ...b, tasks: b.tasks.filter((t) => t.dbId === 'superhero') });
const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-bird-'));
const store = openRunStore(join(tmp, 'store.db'));
const engine = new ExecutionEngine({ dbRoot: DB_ROOT, store });
afterAll(async () => {
  await engine.close();
  store.close();
});

describe('BIRD EX on the official superhero database', () => {
  it("mini-dev baselines: every verdict equals BIRD's rule run in Python and the official program's", { timeout: 600_000 }, async () => {
    const questionsFile = join(BIRD, 'mini_dev', 'mini_dev_sqlite.json');
    const full = loadBenchmark(questionsFile);
    const bench = superhero(full);
    expect(bench.tasks).toHaveLength(52);
    const dirs = ['TA_output', 'sql_output_kg'];
    // The SQLite baselines (the official verdicts' 13 files); the folder may also hold the MySQL and PostgreSQL ones.
    const files = dirs.flatMap((d) => readdirSync(join(BIRD, 'predictions', 'mini_dev', d)).filter((f) => /_sqlite\.json$/i.test(f)).map((f) => `predictions/mini_dev/${d}/${f}`));
    expect(files).toHaveLength(13);
    const systems = files.map((f) => loadPredictions(join(BIRD, f), full, f));
    const run = await runEx(bench, systems, engine, { comparator: 'bird' });

    // Python reads the official format itself: values in file order, split at the marker, paired by position.
    const questions = JSON.parse(readFileSync(questionsFile, 'utf8')) as { db_id: string; SQL: string }[];
    const positions = questions.flatMap((q, i) => (q.db_id === 'superhero' ? [i] : []));
    const pairs: [string, string][] = files.flatMap((f) => {
      const preds = Object.values(JSON.parse(readFileSync(join(BIRD, f), 'utf8')) as Record<string, string>).map((v) => v.split('\t----- bird -----\t')[0]!);
      return positions.map((i): [string, string] => [preds[i]!, questions[i]!.SQL]);
    });
    const python = pythonVerdicts(pairs);
    const ours = files.flatMap((f) => bench.tasks.map((t) => run.items.find((it) => it.system === f && it.taskId === t.id)!.correct));
    expect(ours.map((c) => (c ? 1 : 0))).toEqual(python);

    const official = new Map(
      readFileSync(join(BIRD, 'official-verdicts', 'superhero-soft-f1.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { file: string; questionId: number; ex: number })
        .map((v) => [`${v.file} ${v.questionId}`, v.ex === 1]),
    );
    expect(official.size).toBe(676);
    for (const it of run.items) expect(it.correct, `${it.system} ${it.taskId}`).toBe(official.get(`${it.system} ${it.taskId}`));
    // The official table's EX for gpt-4-o (TA_output): 90.38% of 52.
    expect(run.systems.find((s) => s.name.includes('gpt-4-o'))!.correct).toBe(47);
  });

  it("ROSE's 19 mini-dev systems: every verdict equals BIRD's rule run in Python, comments and all", { timeout: 600_000 }, async () => {
    const questionsFile = join(ROSE, 'mini_dev.json');
    const bench = superhero(loadBenchmark(questionsFile));
    const dir = join(ROSE, 'method_results', 'mini_dev');
    const names = readdirSync(dir).filter((f) => f.endsWith('-result.json')).sort();
    expect(names).toHaveLength(19);
    // The superhero records of each result file (one file holds a non-string SQL on another database).
    const records = names.map((n) =>
      (JSON.parse(readFileSync(join(dir, n), 'utf8')) as { question_id: number; db_id: string; predicted_sql: unknown }[]).filter((r) => r.db_id === 'superhero'),
    );
    const systems = names.map((n, i) => {
      const f = join(tmp, n);
      writeFileSync(f, JSON.stringify(records[i]));
      return loadPredictions(f, bench, n);
    });
    const run = await runEx(bench, systems, engine, { comparator: 'bird' });
    const gold = new Map(bench.tasks.map((t) => [t.id, t.goldSql]));
    const pairs: [string, string][] = records.flatMap((rs) => rs.map((r): [string, string] => [r.predicted_sql as string, gold.get(String(r.question_id))!]));
    const python = pythonVerdicts(pairs);
    const ours = names.flatMap((n, i) => records[i]!.map((r) => run.items.find((it) => it.system === n && it.taskId === String(r.question_id))!.correct));
    expect(ours.map((c) => (c ? 1 : 0))).toEqual(python);
    expect(ours.length).toBeGreaterThan(900);
    // omni-32b opens predictions with a comment ("-- Your SQL query"): they run as given (no "SELECT " prepended).
    const omni = run.systems.find((s) => s.name === 'omni-32b-result.json')!;
    const commented = records[names.indexOf('omni-32b-result.json')]!.filter((r) => String(r.predicted_sql).startsWith('--'));
    expect(commented.length).toBeGreaterThan(0);
    expect(omni.repairs).toEqual({});
    const commentedRight = commented.filter((r) => run.items.find((it) => it.system === omni.name && it.taskId === String(r.question_id))!.correct);
    expect(commentedRight.length).toBeGreaterThan(0);
  });
});
