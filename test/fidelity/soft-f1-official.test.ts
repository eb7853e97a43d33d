import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import type { Benchmark, ItemRecord, PredictionSet } from '../../src/benchmark/types.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { runEx } from '../../src/execution/ex-run.js';
import { openRunStore } from '../../src/store/run-store.js';
import { SHARED, SHARED_SPIDER as SPIDER } from './helpers/shared-data.js';

interface F1Line {
  file: string;
  taskId?: string;
  questionId?: number;
  softF1: number;
  ex?: number;
}

function beforeTab(set: PredictionSet): PredictionSet {
  const byTask = new Map([...set.byTask].map(([id, p]) => [id, { ...p, sql: p.sql.split('\t')[0]! }]));
  return { ...set, byTask };
}

const readLines = (file: string): F1Line[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as F1Line);

function groupByFile(lines: F1Line[]): Map<string, F1Line[]> {
  const byFile = new Map<string, F1Line[]>();
  for (const l of lines) {
    const list = byFile.get(l.file) ?? [];
    list.push(l);
    byFile.set(l.file, list);
  }
  return byFile;
}

/** Items whose Soft-F1 (and EX, where the fixture has it) differ from the official value. */
function mismatches(expected: F1Line[], items: ItemRecord[], idOf: (l: F1Line) => string): string[] {
  const byTask = new Map(items.map((it) => [it.taskId, it]));
  const out: string[] = [];
  for (const l of expected) {
    const it = byTask.get(idOf(l));
    const got = it?.softF1 as number | undefined;
    if (got === undefined || Math.abs(got - l.softF1) > 1e-12) out.push(`${l.file} ${idOf(l)}: softF1 ${String(got)} != ${l.softF1}`);
    if (l.ex !== undefined && (it?.correct ? 1 : 0) !== l.ex) out.push(`${l.file} ${idOf(l)}: ex ${String(it?.correct)} != ${l.ex}`);
  }
  return out;
}

describe('Soft-F1 reproduces the official per-item values', () => {
  let engine: ExecutionEngine;
  beforeAll(() => {
    engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), timeoutSec: 30 });
  });
  afterAll(async () => {
    await engine.close();
  });

  it('on Spider dev: all 23,782 values of bird-soft-f1.jsonl, to 1e-12, and the README means', async () => {
    const byFile = groupByFile(readLines(join(SPIDER, 'official-verdicts', 'bird-soft-f1.jsonl')));
    expect(byFile.size).toBe(23);
    const bench = loadBenchmark(join(SPIDER, 'dev.json'));
    // The official drivers take a line's text before its first TAB (c3's item 770 has TABs inside
    // its SQL); that input handling belongs to the loader (issue 10), so it is applied here.
    const systems = [...byFile.keys()].map((f) => beforeTab(loadPredictions(join(SPIDER, f), bench, f)));
    const run = await runEx(bench, systems, engine, { comparator: 'bird', softF1: true });
    const bad: string[] = [];
    for (const [file, lines] of byFile) {
      const items = run.items.filter((it) => it.system === file);
      bad.push(...mismatches(lines, items, (l) => l.taskId!));
    }
    // rat-sql-gap's items 97 and 98 join three tables without conditions (3,361,680 rows): the
    // default limits refuse them (--max-rows 1,000,000; their bytes also exceed --max-result-bytes'
    // ceiling of 80,000,000), so they score 0 here where the official script gives 0.03125.
    expect(bad).toEqual([
      'predictions/rat-sql-gap/origin_preds.gap.txt 97: softF1 0 != 0.03125',
      'predictions/rat-sql-gap/origin_preds.gap.txt 98: softF1 0 != 0.03125',
    ]);
    const limited = run.items.filter((it) => it.system.includes('rat-sql-gap') && (it.taskId === '97' || it.taskId === '98'));
    expect(limited.map((it) => String(it.predError).startsWith('result too large'))).toEqual([true, true]);
    // With limits raised past those results (as a user reproducing the official number would),
    // the two items score the official 0.03125 too, and through a run store (the 3.4 million rows
    // take about 1 GB in the execution process, and several seconds: hence the caps).
    const gap = 'predictions/rat-sql-gap/origin_preds.gap.txt';
    const big = { ...bench, tasks: bench.tasks.filter((t) => t.id === '97' || t.id === '98') };
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-f1-'));
    const store = openRunStore(join(dir, 'run.db'));
    const raised = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), timeoutSec: 600, maxRows: 4_000_000, maxResultBytes: 256_000_000, maxMemoryMb: 4096, store });
    try {
      const bigRun = await runEx(big, [loadPredictions(join(SPIDER, gap), bench, gap)], raised, { comparator: 'bird', softF1: true });
      expect(mismatches(byFile.get(gap)!.filter((l) => l.taskId === '97' || l.taskId === '98'), bigRun.items, (l) => l.taskId!)).toEqual([]);
      expect(bigRun.items.map((it) => it.softF1)).toEqual([0.03125, 0.03125]);
    } finally {
      await raised.close();
      store.close();
    }
    // Printed means (README table, 4 decimals) from our run's system scores.
    const mean = (f: string): string => run.systems.find((s) => s.name === f)!.metrics['soft-f1']!.mean.toFixed(4);
    expect(mean('predictions/lgesql/origin_preds.lgesql.txt')).toBe('0.4094');
    expect(mean('predictions/c3/predicted_sql.txt')).toBe('0.8410');
    expect(mean('dev_gold.sql')).toBe('1.0000');
  }, 900_000);

  it('on BIRD mini-dev superhero: Soft-F1 and EX of all 676 lines', async () => {
    const bird = join(SHARED, 'bird');
    const byFile = groupByFile(readLines(join(bird, 'official-verdicts', 'superhero-soft-f1.jsonl')));
    expect(byFile.size).toBe(13);
    const full = loadBenchmark(join(bird, 'mini_dev', 'mini_dev_sqlite.json'));
    const bench: Benchmark = { ...full, tasks: full.tasks.filter((t) => t.dbId === 'superhero') };
    expect(bench.tasks.length).toBe(52);
    const systems = [...byFile.keys()].map((f) => loadPredictions(join(bird, f), full, f));
    const birdEngine = new ExecutionEngine({ dbRoot: join(bird, 'database'), timeoutSec: 30 });
    try {
      const run = await runEx(bench, systems, birdEngine, { comparator: 'bird', softF1: true });
      const bad: string[] = [];
      for (const [file, lines] of byFile) {
        bad.push(...mismatches(lines, run.items.filter((it) => it.system === file), (l) => String(l.questionId)));
      }
      expect(bad).toEqual([]);
      // README means (percent, two decimals) for two files.
      const pct = (f: string): string => (100 * run.systems.find((s) => s.name.endsWith(f))!.metrics['soft-f1']!.mean).toFixed(2);
      expect(pct('predict_mini_dev_gpt-4-o_cot_SQLite.json')).toBe('92.30');
      expect(pct('predict_mini_dev_mistralai-mixtral-8x7b-instru-4_sqlite.json')).toBe('24.70');
    } finally {
      await birdEngine.close();
    }
  });
});
