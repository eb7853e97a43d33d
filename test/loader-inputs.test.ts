import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devGoldFile, SPIDER } from './helpers/cli.js';
import { loadBenchmark } from '../src/benchmark/load-questions.js';
import { loadPredictions } from '../src/benchmark/load-predictions.js';
import { readItems } from '../src/benchmark/items.js';
import { readErrorFlags } from '../src/benchmark/error-flags.js';
import { readLabelFile } from '../src/benchmark/label-files.js';
import { loadValidationSet } from '../src/benchmark/validation-set.js';
import { readForeignKeyMaps } from '../src/benchmark/spider-tables.js';
import { readBoardCsv } from '../src/benchmark/board-csv.js';
import { InputFileError } from '../src/errors.js';

/*
 * Every loader against the ways a file arrives broken or odd: a byte-order mark and CRLF line ends
 * (read as the plain file), an empty file, a malformed line, a duplicate id (both lines named).
 * Real inputs where there are some: Spider dev, its gold file, a published system, tables.json, the bundled flags.
 */

const dir = mkdtempSync(join(tmpdir(), 'sqlboard-loaders-'));
let n = 0;
/** Writes `text` to a fresh file ending in `ext` and returns its path. */
const file = (text: string, ext: string): string => {
  const f = join(dir, `f${n++}${ext}`);
  writeFileSync(f, text);
  return f;
};
/** The same text with a BOM and CRLF line ends. */
const windows = (text: string): string => '\uFEFF' + text.replace(/\r?\n/g, '\r\n');
const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
const FIRST = 6;
const questionsText = JSON.stringify(dev.slice(0, FIRST), null, 1);
const bench = loadBenchmark(file(questionsText, '.json'));
const c3 = readFileSync(join(SPIDER, 'predictions', 'c3', 'predicted_sql.txt'), 'utf8').split('\n').slice(0, FIRST).join('\n') + '\n';

/** Expects an InputFileError naming `f` and containing `message`. */
function rejects(f: () => unknown, path: string, message: string | RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err, 'no error thrown').toBeInstanceOf(InputFileError);
  expect((err as InputFileError).file).toBe(path);
  expect((err as Error).message).toMatch(message);
}

describe('questions', () => {
  it('BOM + CRLF read as the plain file (JSON and the official gold format); an empty file is an error', () => {
    expect(loadBenchmark(file(windows(questionsText), '.json')).tasks).toEqual(bench.tasks);
    const gold = readFileSync(devGoldFile(), 'utf8').split('\n').slice(0, FIRST).join('\n') + '\n';
    const plain = loadBenchmark(file(gold, '.sql')).tasks;
    expect(plain).toHaveLength(FIRST);
    expect(loadBenchmark(file(windows(gold), '.sql')).tasks).toEqual(plain);
    for (const empty of ['', '\uFEFF', ' \r\n\r\n']) {
      const f = file(empty, '.json');
      rejects(() => loadBenchmark(f), f, /is empty: expected BIRD or Spider questions/);
    }
  });
});

describe('predictions', () => {
  it('Spider text, JSONL and CSV with BOM + CRLF give the same SQL as the plain files', () => {
    const sqlOf = (f: string): string[] => [...loadPredictions(f, bench, 's').byTask.values()].map((p) => p.sql);
    const plain = sqlOf(file(c3, '.sql'));
    expect(plain).toHaveLength(FIRST);
    expect(sqlOf(file(windows(c3), '.sql'))).toEqual(plain);
    const jsonl = plain.map((sql, i) => JSON.stringify({ question_id: String(i), predicted_sql: sql })).join('\n') + '\n';
    expect(sqlOf(file(windows(jsonl), '.jsonl'))).toEqual(plain);
    const csv = 'question_id,predicted_sql\n' + plain.map((sql, i) => `${i},"${sql.replace(/"/g, '""')}"`).join('\n') + '\n';
    expect(sqlOf(file(windows(csv), '.csv'))).toEqual(plain);
  });

  it('a second record for one question names both lines (JSONL, JSON array); an empty file is a count error', () => {
    const jsonl = file('{"question_id": 0, "predicted_sql": "SELECT 1"}\n\n{"question_id": 1, "predicted_sql": "SELECT 2"}\n{"question_id": 0, "predicted_sql": "SELECT 3"}\n', '.jsonl');
    rejects(() => loadPredictions(jsonl, bench, 's'), jsonl, /:4: a second prediction for question 0 \(the first is on line 1\)/);
    const array = file('[\n  {"question_id": 2, "sql": "SELECT 1"},\n  {"question_id": 2, "sql": "SELECT 2"}\n]\n', '.json');
    rejects(() => loadPredictions(array, bench, 's'), array, /:3: a second prediction for question 2 \(the first is on line 2\)/);
    const empty = file('', '.sql');
    rejects(() => loadPredictions(empty, bench, 's'), empty, `0 prediction lines, but the questions file ${bench.source} has ${FIRST} questions`);
  });

  it('JSONL records carrying more than their SQL (StructGPT: tokens, a parse tree under "sql") read their SQL field, and bad lines are still errors naming the line', () => {
    const heavy = (i: number, fields: object): string =>
      JSON.stringify({ db_id: bench.tasks[i]!.dbId, query_toks: ['SELECT', '1'], sql: { select: [false, [[0, [0, [0, 1, false], null]]]] }, id: String(i), ...fields });
    // "Prediction" comes before "sql" among the SQL fields; "SQL" counts only without any other.
    const lines = bench.tasks.map((_t, i) => heavy(i, i === 1 ? { SQL: 'SELECT upper', sql: 'SELECT lower' } : { Prediction: `SELECT ${i}` }));
    const set = loadPredictions(file(lines.join('\n') + '\n', '.jsonl'), bench, 's');
    expect(set.format).toBe('jsonl');
    expect([...set.byTask.values()].map((p) => [p.sql, p.dbId, p.line])).toEqual(bench.tasks.map((t, i) => [i === 1 ? 'SELECT lower' : `SELECT ${i}`, t.dbId, i + 1]));
    // Only a parse tree under "sql": the SQL field is not a string.
    const tree = file([...lines.slice(0, 2), heavy(2, {}), ...lines.slice(3)].join('\n') + '\n', '.jsonl');
    rejects(() => loadPredictions(tree, bench, 's'), tree, /:3: record 2: "sql" must be a string, got object/);
    const broken = file([...lines.slice(0, 4), lines[4]!.slice(0, -1), ...lines.slice(5)].join('\n') + '\n', '.jsonl');
    rejects(() => loadPredictions(broken, bench, 's'), broken, /:5: not a JSON object \(expected one prediction record per line\)/);
    const notObject = file([...lines.slice(0, 3), '[1]', ...lines.slice(4)].join('\n') + '\n', '.jsonl');
    rejects(() => loadPredictions(notObject, bench, 's'), notObject, /:4: not a JSON object \(expected one prediction record per line\)$/);
    const wrongDb = file([heavy(0, { Prediction: 'SELECT 1', db_id: 'nowhere' }), ...lines.slice(1)].join('\n') + '\n', '.jsonl');
    rejects(() => loadPredictions(wrongDb, bench, 's'), wrongDb, /:1: prediction for question 0 names database "nowhere"/);
  });
});

describe('per-item verdicts (score/judge --items)', () => {
  const rec = (system: string, taskId: number, correct: boolean, extra = {}): string => JSON.stringify({ system, taskId, correct, ...extra });
  it('BOM + CRLF are read; an empty file, a malformed line and a second record for one (system, task) are errors naming the lines', () => {
    const text = [rec('a', 0, true), rec('a', 1, false), rec('b', 0, true)].join('\n') + '\n';
    expect(readItems(file(windows(text), '.jsonl'))).toEqual(readItems(file(text, '.jsonl')));
    const empty = file('\n\n', '.jsonl');
    rejects(() => readItems(empty), empty, /holds no per-item records/);
    const bad = file(`${rec('a', 0, true)}\n{"system": "a", "taskId": 1,\n`, '.jsonl');
    rejects(() => readItems(bad), bad, /:2: not a JSON object/);
    const dup = file([rec('a', 0, true), rec('b', 0, true), rec('a', 0, false)].join('\n') + '\n', '.jsonl');
    rejects(() => readItems(dup), dup, /:3: system "a" has a second record for task 0 \(lines 1 and 3\)/);
    // The same task id in two subsets (validation sets span subsets) is two items.
    const subsets = file([rec('a', 0, true, { subset: 'bird' }), rec('a', 0, false, { subset: 'spider' })].join('\n') + '\n', '.jsonl');
    expect(readItems(subsets)).toHaveLength(2);
    // stats agreement reads the same files.
    rejects(() => readLabelFile(dup), dup, /lines 1 and 3/);
  });
});

describe('flags and label CSVs (SALUS format)', () => {
  const salus = join(SPIDER, 'audit', 'flags.csv');
  it('the bundled flags (SALUS format) with BOM + CRLF read as the plain file; empty, header-only and duplicate ids are errors', () => {
    const text = readFileSync(salus, 'utf8');
    const plain = readErrorFlags(file(text, '.csv'));
    expect(plain.size).toBeGreaterThan(100);
    expect(readErrorFlags(file(windows(text), '.csv'))).toEqual(plain);
    const empty = file('', '.csv');
    rejects(() => readErrorFlags(empty), empty, /is empty: expected a CSV header/);
    const header = file('task_id,predicted_label\n', '.csv');
    rejects(() => readErrorFlags(header), header, /has a header but no rows/);
    const dup = file('task_id,predicted_label\n3,0\n4,1\n3,1\n', '.csv');
    rejects(() => readErrorFlags(dup), dup, /:4: task_id 3 appears twice \(lines 2 and 4\)/);
    rejects(() => readLabelFile(dup), dup, /lines 2 and 4/);
  });
});

describe('validation sets, tables.json, published boards', () => {
  it('a validation item twice in one subset names both lines (sqlboard JSONL and ROSE-VEC JSON); an empty set is an error', () => {
    const jsonl = file('{"id": 1, "label": true}\r\n{"id": 2, "label": false}\r\n{"id": 1, "label": false}\r\n', '.jsonl');
    rejects(() => loadValidationSet(jsonl), jsonl, /:3: item id 1 appears twice in subset .* \(lines 1 and 3\)/);
    const rose = file('[\n {"question_id": 5, "label": true},\n {"question_id": 6, "label": true},\n {"question_id": 5, "label": false}\n]', '.json');
    rejects(() => loadValidationSet(rose), rose, /:4: item id 5 appears twice in subset .* \(lines 2 and 4\)/);
    const empty = file('', '.jsonl');
    rejects(() => loadValidationSet(empty), empty, /holds no items/);
  });

  it("Spider's tables.json: BOM + CRLF read as the plain file; a db_id with two entries names both lines", () => {
    const tables = JSON.parse(readFileSync(join(SPIDER, 'tables.json'), 'utf8')) as { db_id: string }[];
    const some = JSON.stringify(tables.slice(0, 3), null, 1);
    expect(readForeignKeyMaps(file(windows(some), '.json'))).toEqual(readForeignKeyMaps(file(some, '.json')));
    const twice = file(JSON.stringify([tables[0], tables[1], tables[0]], null, 0).replace(/\},\{"column_names"/g, '},\n{"column_names"'), '.json');
    rejects(() => readForeignKeyMaps(twice), twice, new RegExp(`db_id ${tables[0]!.db_id} has two entries \\(lines 1 and 3\\)`));
  });

  it('a published board: BOM + CRLF read as the plain file; a repeated system name is kept apart as "name (2)" and listed (documented)', () => {
    const text = 'system,dev,test\nA,70.1,68.0\nB,69.0,67.5\nA,71.0,69.9\n';
    const plain = readBoardCsv(file(text, '.csv'));
    expect(readBoardCsv(file(windows(text), '.csv'))).toEqual(plain);
    expect(plain.rows.map((r) => r.name)).toEqual(['A', 'B', 'A (2)']);
    expect(plain.renamed).toEqual([{ from: 'A', to: 'A (2)', line: 4 }]);
  });
});
