import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import type { Benchmark } from '../src/benchmark/types.js';
import { runCli, SPIDER } from './helpers/cli.js';
import { leaderboard } from '../src/api/leaderboard.js';

const bench: Benchmark = {
  format: 'bird',
  source: 'q.json',
  tasks: [0, 1, 2].map((i) => ({ id: String(i), dbId: 'flight_2', question: `q${i}`, evidence: '', goldSql: 'SELECT 1' })),
};

describe('loaders reject duplicate ids, naming both lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-dup-'));
  it('BIRD JSON: a repeated position key (JSON.parse kept the last one silently)', () => {
    const file = join(dir, 'bird.json');
    writeFileSync(file, '{\n  "0": "SELECT 1",\n  "1": "SELECT 2",\n  "0": "SELECT 3",\n  "2": "SELECT \\"0\\": 4"\n}\n');
    expect(() => loadPredictions(file, bench, 's')).toThrow(`${file}:4: key "0" appears twice (lines 2 and 4)`);
    writeFileSync(file, '{\n  "0": "SELECT 1",\n  "1": "SELECT \\"0\\": 2",\n  "2": "SELECT 3"\n}\n');
    expect(loadPredictions(file, bench, 's').byTask.get('1')!.sql).toBe('SELECT "0": 2');
  });
  it('CSV: a repeated question id (the last row won silently)', () => {
    const file = join(dir, 'preds.csv');
    writeFileSync(file, 'question_id,predicted_sql\n0,SELECT 1\n1,"SELECT\n2"\n1,SELECT 3\n');
    expect(() => loadPredictions(file, bench, 's')).toThrow(`${file}:5: a second prediction for question 1 (the first is on line 4)`);
  });
});

describe('meaningless or repeated options are errors before any work', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-opts-'));
  const questions = join(dir, 'q.json');
  writeFileSync(questions, JSON.stringify([{ db_id: 'flight_2', query: 'SELECT count(*) FROM airlines', question: 'q' }]));
  const preds = join(dir, 'p.sql');
  writeFileSync(preds, 'SELECT count(*) FROM airlines\n');
  const base = ['score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--system', `s=${preds}`, '--store', join(dir, 's.db')];

  it('an option given twice, --keep-distinct with the bird comparator; flags for unknown tasks are named', async () => {
    const flags = join(dir, 'flags.csv');
    writeFileSync(flags, 'task_id,predicted_label\n0,1\n7,0\nabc,0\n');
    const cases: [string[], RegExp][] = [
      [['--store', join(dir, 'other.db')], /--store was given 2 times \(".*s\.db", ".*other\.db"\); give it once/],
      [['--timeout', '5', '--timeout', '9'], /--timeout was given 2 times \(5, 9\); give it once/],
      [['--comparator', 'bird', '--keep-distinct'], /--keep-distinct is an option of the spider comparator/],
    ];
    for (const [extra, message] of cases) {
      const r = await runCli([...base, ...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    }
    // Flags for tasks the questions lack are named and counted (a subset of a benchmark with its full flags is legitimate).
    const named = await runCli([...base, '--flags', flags, '--json']);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stderr).toMatch(/flags\.csv: 2 of its 3 task ids are not tasks of the questions .*q\.json \(7, abc\) and were left out/);
    expect(JSON.parse(named.stdout).flags).toMatchObject({ flagged: 0, clean: 1, unlisted: 0, unused: 2 });
    // Flags of which no id is a task (another benchmark's) are an error, before any execution.
    const foreign = join(dir, 'foreign.csv');
    writeFileSync(foreign, 'task_id,predicted_label\n7,0\nabc,0\n');
    const store = join(dir, 'foreign.db');
    const wrong = await runCli([...base.slice(0, -1), store, '--flags', foreign]);
    expect(wrong.code, wrong.stderr).toBe(2);
    expect(wrong.stderr).toMatch(/foreign\.csv: none of its 2 task ids is a task of the questions .*q\.json \(7, abc\): these are the flags of another benchmark or id scheme/);
    expect(wrong.stderr).not.toMatch(/internal error|\n\s+at /);
    // Options declared as lists still take several values.
    const ok = await runCli([...base.slice(0, -2), '--system', `t=${preds}`, '--store', join(dir, 's.db'), '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect((JSON.parse(ok.stdout) as { systems: unknown[] }).systems).toHaveLength(2);
  }, 300_000);
});

describe('leaderboard --flags against the verdicts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lbflags-'));
  const items = join(dir, 'items.jsonl');
  writeFileSync(items, ['0', '1', '2'].map((t, i) => JSON.stringify({ system: 's', taskId: t, correct: i !== 1 })).join('\n') + '\n');
  it('rows for tasks no verdict file has are counted; flags of which none matches are an error', () => {
    const some = join(dir, 'some.csv');
    writeFileSync(some, 'task_id,predicted_label\n1,0\n9,0\n');
    const r = leaderboard({ items: [items], flags: some, iterations: 10 });
    expect(r.json.flags).toEqual({ flagged: 1, clean: 2, unlisted: 2, unused: 1 });
    expect(JSON.stringify(r.report)).toContain('1 flag rows name tasks that no verdict file has; they are ignored.');
    const none = join(dir, 'none.csv');
    writeFileSync(none, 'task_id,predicted_label\n8,0\n9,0\n');
    expect(() => leaderboard({ items: [items], flags: none, iterations: 10 })).toThrow(
      `${none}: none of its 2 task ids is a task of the verdict files (8, 9): these are the flags of another benchmark or id scheme`,
    );
  });
});
