import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { prefetchEx, runEx, type ExOptions } from '../../src/execution/ex-run.js';
import { openRunStore } from '../../src/store/run-store.js';
import { SHARED_SPIDER as SPIDER } from './helpers/shared-data.js';

/**
 * Per-item verdicts of the unmodified official programs (test-suite-sql-eval's exec match, with
 * and without keep_distinct, and BIRD's evaluation_ex) on 23 Spider dev prediction files, read
 * from ../shared/datasets/spider/official-verdicts (see its README). sqlboard must give the same
 * verdict on every item, with its default input handling (no repair).
 */
const VERDICTS = join(SPIDER, 'official-verdicts');

interface Official {
  file: string;
  taskId: string;
  correct: boolean;
}

function readOfficial(name: string): Map<string, Map<string, boolean>> {
  const byFile = new Map<string, Map<string, boolean>>();
  for (const line of readFileSync(join(VERDICTS, name), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const v = JSON.parse(line) as Official;
    let m = byFile.get(v.file);
    if (!m) byFile.set(v.file, (m = new Map()));
    m.set(v.taskId, v.correct);
  }
  return byFile;
}

const bench = loadBenchmark(join(SPIDER, 'dev.json'));
// One run store and one engine for both spider comparisons: each distinct (database, SQL) runs once.
// The bird comparison gets its own, so that it executes everything through prefetch as `score` does.
const engines = ['spider', 'bird'].map(() => {
  const store = openRunStore(join(mkdtempSync(join(tmpdir(), 'sqlboard-official-')), 'store.db'));
  return { store, engine: new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), store }) };
});
afterAll(async () => {
  for (const { engine, store } of engines) {
    await engine.close();
    store.close();
  }
});

/**
 * Differences per file: items whose verdict is not the official one. As `score` does, the golds start
 * executing first and each file's predictions once it is read (prefetchEx), before runEx.
 */
async function differences(verdictFile: string, opts: ExOptions): Promise<Record<string, string[]>> {
  const official = readOfficial(verdictFile);
  const files = [...official.keys()];
  const { engine } = engines[opts.comparator === 'bird' ? 1 : 0]!;
  prefetchEx(engine, bench, opts);
  const systems = files.map((f) => {
    const set = loadPredictions(join(SPIDER, f), bench, f);
    prefetchEx(engine, bench, opts, set);
    return set;
  });
  const run = await runEx(bench, systems, engine, opts);
  // Every distinct query ran once, whether prefetched or not.
  if (opts.comparator === 'bird') expect(run.execution.executed + run.execution.reused).toBe(run.execution.distinct);
  const diff: Record<string, string[]> = {};
  for (const f of files) diff[f] = [];
  for (const item of run.items) {
    const want = official.get(item.system)!.get(item.taskId);
    if (want !== item.correct) diff[item.system]!.push(`${item.taskId}: official ${want}, sqlboard ${item.correct}${item.predError ? ` (${item.predError})` : ''}`);
  }
  expect(run.items).toHaveLength(files.length * 1034);
  return diff;
}

const none = (files: number): ((d: Record<string, string[]>) => void) => (d) => {
  expect(Object.keys(d)).toHaveLength(files);
  for (const [file, items] of Object.entries(d)) expect(items, file).toEqual([]);
};

describe('per-item verdicts equal the official programs on 23 Spider dev files', () => {
  // Generous limits: a few predictions are cross joins of millions of rows, slow on a loaded machine.
  it('spider: test-suite-sql-eval exec match (23,782 verdicts)', { timeout: 900_000 }, async () => {
    none(23)(await differences('spider.jsonl', { comparator: 'spider' }));
  });
  it('spider --keep-distinct (3,102 verdicts)', { timeout: 900_000 }, async () => {
    none(3)(await differences('spider-keep-distinct.jsonl', { comparator: 'spider', keepDistinct: true }));
  });
  it("bird: BIRD's evaluation_ex (23,782 verdicts)", { timeout: 900_000 }, async () => {
    none(23)(await differences('bird.jsonl', { comparator: 'bird' }));
  });
});
