import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Benchmark, PredictionSet } from '../../src/benchmark/types.js';
import { birdView } from '../../src/execution/compare-bird.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { runEx } from '../../src/execution/ex-run.js';
import type { ExecResult } from '../../src/execution/types.js';
import { decodeUtf8Ignore } from '../../src/execution/utf8.js';
import { openRunStore } from '../../src/store/run-store.js';

/**
 * TEXT whose bytes are not valid UTF-8, checked against python3's sqlite3 on the same database:
 * BIRD's evaluators fetch with the default strict decoding (an execution error), test-suite-sql-eval
 * with `text_factory = lambda b: b.decode(errors="ignore")` (the bad bytes dropped).
 */
const PYTHON = String.raw`
import json, sqlite3, sys
db = sys.argv[1]
job = json.load(sys.stdin)
def run(sql, mode):
    conn = sqlite3.connect(db)
    if mode == 'ignore':
        conn.text_factory = lambda b: b.decode(errors='ignore')
    try:
        return {'ok': True, 'rows': [[v.hex() if isinstance(v, bytes) else v for v in r] for r in conn.execute(sql).fetchall()]}
    except Exception as e:
        return {'ok': False, 'error': str(e)}
    finally:
        conn.close()
def rows(r):
    return [tuple(x) for x in r['rows']] if r['ok'] else None
out = {'strict': [run(s, 'strict') for s in job['sqls']], 'ignore': [run(s, 'ignore') for s in job['sqls']],
       'decoded': [bytes.fromhex(h).decode(errors='ignore') for h in job['hex']], 'ex': []}
for gold, pred in job['pairs']:
    # BIRD: set equality of strictly decoded rows, an error on either side 0.
    g, p = rows(run(gold, 'strict')), rows(run(pred, 'strict'))
    bird = g is not None and p is not None and set(g) == set(p)
    # test-suite: the rows as errors="ignore" decodes them (one column, no ORDER BY: a multiset).
    g, p = rows(run(gold, 'ignore')), rows(run(pred, 'ignore'))
    spider = g is not None and p is not None and sorted(g) == sorted(p)
    out['ex'].append({'bird': bird, 'spider': spider})
print(json.dumps(out))
`;

/** Byte strings that exercise the decoders: lone and truncated sequences, surrogates, overlong forms, real U+FFFD. */
const HEX = [
  '61ff62', // a, an invalid byte, b
  '61efbfbd62', // a real U+FFFD: valid
  '61e282', // a truncated 3-byte sequence at the end
  '61e28262', // a truncated sequence before an ASCII byte
  'eda080', // a UTF-16 surrogate encoded as UTF-8: invalid for both
  'c0af', // an overlong '/'
  'f4908080', // beyond U+10FFFF
  'e2efbfbd', // a truncated lead before a real U+FFFD
  '80bf', // continuation bytes alone
  'f09f9880ff', // an emoji, then an invalid byte
  'c3a9', // é: valid
];

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-utf8-'));
mkdirSync(join(tmp, 'bytes'));
const DB_FILE = join(tmp, 'bytes', 'bytes.sqlite');
{
  const db = new Database(DB_FILE);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, note TEXT)');
  HEX.forEach((h, i) => db.exec(`INSERT INTO t VALUES (${i + 1}, CAST(x'${h}' AS TEXT), 'row ${i + 1}')`));
  db.close();
}

const SQLS = [
  ...HEX.map((_h, i) => `SELECT name FROM t WHERE id = ${i + 1}`),
  'SELECT * FROM t',
  'SELECT note, name FROM t ORDER BY id DESC',
  // The same rows in an order the wrapped re-read may not keep; and text computed in the query.
  'SELECT name, count(*) FROM t GROUP BY name ORDER BY random()',
  "SELECT CAST(x'ff61' AS TEXT), 'plain', x'ff'",
  "SELECT name FROM t WHERE id IN (1, 2) UNION ALL SELECT CAST(x'61ff62' AS TEXT)",
  'SELECT name FROM t WHERE id = 1 -- a trailing comment;',
  // Python's message: a NUL ends the text, the whole stops at 198 bytes, non-ASCII bytes show as U+FFFD.
  "SELECT CAST(x'ff0061' AS TEXT) AS colé",
  "SELECT CAST(x'ff' || hex(zeroblob(200)) AS TEXT)",
];

interface PyRun {
  ok: boolean;
  rows?: unknown[][];
  error?: string;
}
interface PyOut {
  strict: PyRun[];
  ignore: PyRun[];
  decoded: string[];
  ex: { bird: boolean; spider: boolean }[];
}

// Gold and prediction pairs scored by both comparators (one column each, no ORDER BY).
const PAIRS: [string, string][] = [
  ['SELECT name FROM t WHERE id = 1', "SELECT 'ab'"],
  ['SELECT name FROM t WHERE id = 1', 'SELECT name FROM t WHERE id = 1'],
  ['SELECT name FROM t WHERE id = 2', "SELECT 'a' || char(65533) || 'b'"],
  ['SELECT name FROM t WHERE id = 3', "SELECT 'a'"],
  ['SELECT note FROM t WHERE id = 1', 'SELECT note FROM t WHERE id = 1'],
  ["SELECT 'ab'", 'SELECT name FROM t WHERE id IN (1, 4)'],
];

function python(): PyOut {
  return JSON.parse(execFileSync('python3', ['-c', PYTHON, DB_FILE], { input: JSON.stringify({ sqls: SQLS, hex: HEX, pairs: PAIRS }), encoding: 'utf8' })) as PyOut;
}

/** A result as the python script reports it (a blob as hex). */
const plain = (r: ExecResult): PyRun =>
  r.status === 'ok' ? { ok: true, rows: r.rows.map((row) => row.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))) } : { ok: false, error: r.error! };

const store = openRunStore(join(tmp, 'store.db'));
const engine = new ExecutionEngine({ dbRoot: tmp, workers: 1, store });
afterAll(async () => {
  await engine.close();
  store.close();
});

describe('TEXT that is not valid UTF-8, as each official evaluator decodes it', () => {
  const py = python();

  it("decodes like Python's errors='ignore'", () => {
    expect(HEX.map((h) => decodeUtf8Ignore(Buffer.from(h, 'hex')))).toEqual(py.decoded);
  });

  it("spider sees Python's errors='ignore' rows; bird sees Python's strict decoding error, message included", async () => {
    const results = await engine.run(SQLS.map((sql) => ({ dbId: 'bytes', sql })));
    results.forEach((r, i) => {
      const want = py.ignore[i]!;
      const sort = (rows: unknown[][] | undefined): string[] | undefined => rows?.map((x) => JSON.stringify(x)).sort();
      // ORDER BY random(): compared as multisets; the rest in order.
      if (SQLS[i]!.includes('random()')) expect(sort(plain(r).rows), SQLS[i]).toEqual(sort(want.rows));
      else expect(plain(r), SQLS[i]).toEqual(want);
    });
    results.forEach((r, i) => {
      const strict = py.strict[i]!;
      const seen = birdView(r);
      if (strict.ok) expect(plain(seen), SQLS[i]).toEqual(strict);
      else if (SQLS[i]!.includes('random()')) expect(seen.error, SQLS[i]).toMatch(/^Could not decode to UTF-8 column 'name' with text /);
      else expect({ ok: false, error: seen.error }, SQLS[i]).toEqual(strict);
    });
    // Some queries really are errors under strict decoding and some decode fine.
    expect(py.strict.filter((r) => !r.ok).length).toBeGreaterThanOrEqual(8);
    expect(py.strict.filter((r) => r.ok).length).toBeGreaterThanOrEqual(2);
  });

  it('EX under both comparators equals a python3 run of each rule, also when results come from the run store', async () => {
    const bench: Benchmark = {
      format: 'spider',
      source: 'test',
      tasks: PAIRS.map(([gold], i) => ({ id: String(i), dbId: 'bytes', question: '', evidence: '', goldSql: gold })),
    };
    const system: PredictionSet = { system: 's', file: 's', byTask: new Map(PAIRS.map(([, pred], i) => [String(i), { taskId: String(i), sql: pred }])) };
    // Pass 2: a fresh engine on the same run store, so every result is read back from the store.
    for (const pass of [1, 2]) {
      const e = pass === 1 ? engine : new ExecutionEngine({ dbRoot: tmp, workers: 1, store });
      const bird = await runEx(bench, [system], e, { comparator: 'bird', softF1: true });
      const spider = await runEx(bench, [system], e, { comparator: 'spider' });
      if (pass === 2) {
        expect(e.stats.executed).toBe(0);
        await e.close();
      }
      expect(bird.items.map((it) => it.correct), `pass ${pass}`).toEqual(py.ex.map((e) => e.bird));
      expect(spider.items.map((it) => it.correct), `pass ${pass}`).toEqual(py.ex.map((e) => e.spider));
      // Under bird an undecodable prediction is an execution error, and Soft-F1 (BIRD's) is 0.
      expect(bird.items[0]!.goldError).toBe("Could not decode to UTF-8 column 'name' with text 'a\uFFFDb'");
      expect(bird.items[0]!.predError).toBeUndefined();
      expect(bird.items[1]!.predError).toMatch(/^Could not decode to UTF-8 column 'name'/);
      expect(bird.items[1]!.softF1).toBe(0);
      expect(bird.items[4]!.softF1).toBe(1);
      expect(spider.items[1]!.predError).toBeUndefined();
    }
    // The two comparators disagree on the items the decoding decides.
    expect(py.ex.filter((e) => e.bird !== e.spider).length).toBeGreaterThanOrEqual(2);
  });
});
