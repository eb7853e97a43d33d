import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExecutionEngine } from '../../src/execution/engine.js';
import type { Cell, ExecResult } from '../../src/execution/types.js';
import { SHARED_SPIDER as SPIDER } from './helpers/shared-data.js';

/**
 * What Python's sqlite3 (the module both official evaluators execute with) accepts and returns,
 * checked against a real python3 run on the same texts and database.
 */
const PYTHON = String.raw`
import json, sqlite3, sys
db, mode = sys.argv[1], sys.argv[2]
out = []
for sql in json.load(sys.stdin):
    conn = sqlite3.connect(db)
    if mode == 'ignore':
        conn.text_factory = lambda b: b.decode(errors='ignore')
    try:
        cur = conn.cursor()
        cur.execute(sql)
        rows = cur.fetchall()
        out.append({'ok': True, 'rows': [[v.hex() if isinstance(v, bytes) else v for v in r] for r in rows]})
    except Exception as e:
        out.append({'ok': False, 'error': str(e)})
    conn.close()
print(json.dumps(out))
`;

interface PyResult {
  ok: boolean;
  rows?: Cell[][];
  error?: string;
}

function python(db: string, mode: 'strict' | 'ignore', sqls: string[]): PyResult[] {
  return JSON.parse(execFileSync('python3', ['-c', PYTHON, db, mode], { input: JSON.stringify(sqls), encoding: 'utf8' })) as PyResult[];
}

const plain = (r: ExecResult): PyResult =>
  r.status === 'ok' ? { ok: true, rows: r.rows.map((row) => row.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : typeof v === 'bigint' ? Number(v) : v))) } : { ok: false };

const engines: ExecutionEngine[] = [];
const engine = (dbRoot: string): ExecutionEngine => {
  const e = new ExecutionEngine({ dbRoot, workers: 1 });
  engines.push(e);
  return e;
};
afterAll(async () => {
  for (const e of engines) await e.close();
});

describe("execution accepts exactly what Python's sqlite3 accepts", () => {
  it('one statement: comments and whitespace may follow, an empty second statement, \\v or a NUL may not; an empty text runs', async () => {
    const sqls = [
      'SELECT count(*) FROM singer',
      'SELECT count(*) FROM singer;',
      'SELECT count(*) FROM continents; ;',
      'SELECT count(*) FROM singer; ;',
      'SELECT count(*) FROM singer;;',
      'SELECT count(*) FROM singer; -- done\n/* and a block */ \f\r\n',
      'SELECT count(*) FROM singer; /* unterminated',
      'SELECT count(*) FROM singer;\v',
      'SELECT count(*) FROM singer; SELECT 1',
      'SELECT count(*) FROM singer\0; DROP TABLE singer',
      "SELECT ';' FROM singer LIMIT 1; ",
      '',
      '   \n',
      '-- Your SQL query',
      ';',
      '; SELECT count(*) FROM singer',
      '-- Your SQL query\nSELECT count(*) FROM singer',
      'SELECT name FROM singer WHERE name = "Joe Sharp"',
      'SELECT count(*) FROM singer -- trailing comment',
    ];
    const expected = python(join(SPIDER, 'database', 'concert_singer', 'concert_singer.sqlite'), 'strict', sqls);
    const got = await engine(join(SPIDER, 'database')).run(sqls.map((sql) => ({ dbId: 'concert_singer', sql })));
    expect(got.map(plain)).toEqual(expected.map((p) => (p.ok ? p : { ok: false })));
    // The cases the issue names, spelled out.
    expect(got[3]!.error).toBe('You can only execute one statement at a time.');
    expect(got[9]!.error).toBe('the query contains a null character');
    expect(got[11]).toMatchObject({ status: 'ok', rows: [] });
  });
});
