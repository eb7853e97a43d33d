/**
 * `npm run bench`: prints wall time and executions for sqlboard's scorer against a serial
 * baseline that, like the official evaluators, executes gold and prediction for every
 * (system, task) pair; and the floor: the sum of each distinct query's own time / cores.
 * Targets: within 1.5x of the floor, at least 4x faster than the baseline.
 */
import Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { bundledSpider } from '../src/benchmark/bundled.js';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { spiderEqual, spiderExecutedSql, spiderOrderMatters } from '../src/execution/compare-spider.js';
import { databaseFile, ExecutionEngine } from '../src/execution/engine.js';
import { runEx } from '../src/execution/ex-run.js';
import { runQuery } from '../src/execution/run-query.js';
import { extraBenchmarks } from './extra.js';

const SYSTEMS = 10;
const cores = availableParallelism();
const data = bundledSpider();
// Both timings run from loaded inputs to verdicts. As in `sqlboard score`, the execution
// processes start first and boot while the files are read.
const load = () => {
  const bench = loadBenchmark(data.questions);
  return { bench, systems: data.systems.slice(0, SYSTEMS).map((s) => loadPredictions(s.file, bench, s.name)) };
};
const { bench, systems } = load();
const pairs = bench.tasks.length * systems.length;

const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const line = (label: string, value: string): void => void process.stdout.write(`${label.padEnd(44)} ${value}\n`);

process.stdout.write(`Spider dev: ${bench.tasks.length} tasks x ${systems.length} systems = ${pairs} pairs, ${cores} cores\n\n`);

const RUNS = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// sqlboard: no run store, so every distinct query really executes; fresh execution processes
// each run (they start first and boot while the files are read, as in the CLI).
const oursWall: number[] = [];
const floors: number[] = [];
let run!: Awaited<ReturnType<typeof runEx>>;
for (let i = 0; i < RUNS; i++) {
  const engine = new ExecutionEngine({ dbRoot: data.dbRoot, workers: cores });
  const ours = load();
  const t0 = performance.now();
  run = await runEx(ours.bench, ours.systems, engine, { comparator: 'spider' });
  oursWall.push(performance.now() - t0);
  await engine.close();
  floors.push(run.execution.executionMs / cores);
}
const oursMs = median(oursWall);
const floorMs = median(floors);
const oursCorrect = run.systems.reduce((a, s) => a + s.correct, 0);

// Baseline: serial, as test-suite-sql-eval runs it: for every (system, task) pair, gold and
// prediction each on a fresh connection (its exec_on_db connects per query).
const execFresh = (dbId: string, sql: string) => {
  const db = new Database(databaseFile(data.dbRoot, dbId), { readonly: true });
  try {
    return runQuery(db, sql, 1_000_000);
  } finally {
    db.close();
  }
};
let baselineExecutions = 0;
let baselineCorrect = 0;
const baselineWall: number[] = [];
for (let i = 0; i < 2; i++) {
  baselineExecutions = 0;
  baselineCorrect = 0;
  const base = load();
  const t0 = performance.now();
  for (const s of base.systems) {
    for (const task of base.bench.tasks) {
      const gold = execFresh(task.dbId, spiderExecutedSql(task.goldSql, false, false));
      const p = s.byTask.get(task.id);
      baselineExecutions++;
      if (!p) continue;
      const pred = execFresh(task.dbId, spiderExecutedSql(p.sql, false, true));
      baselineExecutions++;
      if (spiderEqual(gold, pred, spiderOrderMatters(task.goldSql, false))) baselineCorrect++;
    }
  }
  baselineWall.push(performance.now() - t0);
}
const baselineMs = median(baselineWall);

line('sqlboard wall time (median of 3)', `${fmt(oursMs)} (runs: ${oursWall.map(fmt).join(', ')})`);
line('sqlboard executions', `${run.execution.executed} (distinct (db, SQL) pairs of ${run.execution.requested} requested)`);
line('floor (sum of distinct query times / cores)', `${fmt(floorMs)} (median of 3)`);
line('sqlboard / floor', `${(oursMs / floorMs).toFixed(2)}x (target <= 1.5x)`);
line('serial baseline wall time (median of 2)', `${fmt(baselineMs)} (runs: ${baselineWall.map(fmt).join(', ')})`);
line('serial baseline executions', String(baselineExecutions));
line('speed-up over baseline', `${(baselineMs / oursMs).toFixed(1)}x (target >= 4x)`);
line('same verdicts', oursCorrect === baselineCorrect ? `yes (${oursCorrect} correct)` : `NO: ${oursCorrect} vs ${baselineCorrect}`);
process.stdout.write('\n');
await extraBenchmarks(line, fmt);
