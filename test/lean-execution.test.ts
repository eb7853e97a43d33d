import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowSetDigest } from '../src/execution/row-set.js';
import { runQuery } from '../src/execution/run-query.js';
import { fromWire, toWire } from '../src/execution/wire-result.js';
import { isSpaceCode, significantTokens, tokenize } from '../src/sql/tokenize.js';
import { SPIDER } from './helpers/cli.js';
import { spiderDatabases } from './helpers/spider-db.js';

const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string; query: string }[];

describe('execution that sends a digest instead of rows (the bird comparison)', () => {
  it('gives every Spider dev gold, and values that need care, the digest its rows get back from the run store', () => {
    // The execution process digests the rows it made; a result kept whole in the run store is
    // digested from its decoded rows (compare-bird, result-store): both must agree, or one run
    // would compare a gold's digest with a prediction's stored rows wrongly.
    const { open, close } = spiderDatabases();
    const special = [
      "SELECT 9007199254740993, -9007199254740993, 3.0, 3, -0.0, 1e308 * 10, NULL, x'00ff', 'it''s'",
      "SELECT CAST(x'ff41' AS TEXT) AS t UNION ALL SELECT 'A'",
      'SELECT 1 UNION ALL SELECT 1.0 UNION ALL SELECT 2',
      'SELECT 9007199254740992 UNION ALL SELECT 9007199254740992.0 UNION ALL SELECT 9007199254740993',
      'SELECT nope FROM singer',
      'SELECT * FROM singer; SELECT 1',
    ].map((query) => ({ db_id: 'concert_singer', query }));
    let ok = 0;
    try {
      for (const { db_id, query } of [...dev, ...special]) {
        const sent = toWire(runQuery(open(db_id), query, 1_000_000), { rows: false, rowSet: true });
        const kept = fromWire(toWire(runQuery(open(db_id), query, 1_000_000), { rows: true, rowSet: false }), true);
        expect({ status: sent.status, error: sent.error, undecodable: sent.undecodable, rowsJson: sent.rowsJson }).toEqual({
          status: kept.status,
          error: kept.error,
          undecodable: kept.undecodable,
          rowsJson: undefined,
        });
        if (kept.status !== 'ok') continue;
        ok++;
        expect(sent.rowSet, query).toBe(rowSetDigest(kept.rows));
      }
    } finally {
      close();
    }
    expect(ok).toBeGreaterThan(dev.length - 10);
  });

  it('tells row sets apart by their row length, except empty ones (Python: set() == set())', () => {
    expect(rowSetDigest([['a', 'b']])).not.toBe(rowSetDigest([['a'], ['b']]));
    expect(rowSetDigest([[1, 2], [3, 4]])).not.toBe(rowSetDigest([[1, 2, 3, 4]]));
    expect(rowSetDigest([])).toBe(rowSetDigest([]));
    // Python's equality: 1 == 1.0, order and repeats do not matter; '1' != 1.
    expect(rowSetDigest([[1, 'x'], [2, 'y'], [1, 'x']])).toBe(rowSetDigest([[2, 'y'], [1.0, 'x']]));
    expect(rowSetDigest([['1']])).not.toBe(rowSetDigest([[1]]));
  });
});

describe('the SQL lexer', () => {
  it('takes for whitespace exactly what JavaScript\'s \\s does, for every UTF-16 code unit', () => {
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (isSpaceCode(c) !== /\s/.test(String.fromCharCode(c))) differ.push(c);
    expect(differ).toEqual([]);
  });

  it('is lossless on every Spider dev gold, and significant tokens are the others', () => {
    for (const { query } of dev) {
      const all = tokenize(query);
      expect(all.map((t) => t.text).join('')).toBe(query);
      expect(significantTokens(query)).toEqual(all.filter((t) => t.kind !== 'space' && t.kind !== 'comment'));
    }
    expect(tokenize("x.5e3 0x1F `a``b` [c d] 'e''f' \"g\" :p ?1 -- c\n/* d */ a<>b || c \u00a0\u2028é$1").map((t) => [t.kind, t.text])).toEqual([
      ['word', 'x'], ['number', '.5e3'], ['space', ' '], ['number', '0x1F'], ['space', ' '], ['quotedIdent', '`a``b`'], ['space', ' '],
      ['quotedIdent', '[c d]'], ['space', ' '], ['string', "'e''f'"], ['space', ' '], ['dquoted', '"g"'], ['space', ' '], ['param', ':p'],
      ['space', ' '], ['param', '?1'], ['space', ' '], ['comment', '-- c'], ['space', '\n'], ['comment', '/* d */'], ['space', ' '],
      ['word', 'a'], ['op', '<>'], ['word', 'b'], ['space', ' '], ['op', '||'], ['space', ' '], ['word', 'c'], ['space', ' \u00a0\u2028'], ['word', 'é$1'],
    ]);
  });
});

describe('what a bird run keeps in the run store', () => {
  it('digests only, unless previews are wanted (score --html): then every query ran has its rows and a preview', async () => {
    const { loadBenchmark } = await import('../src/benchmark/load-questions.js');
    const { ExecutionEngine } = await import('../src/execution/engine.js');
    const { runScore } = await import('../src/execution/score-run.js');
    const { runPreviews } = await import('../src/execution/run-previews.js');
    const { openRunStore } = await import('../src/store/run-store.js');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const full = loadBenchmark(join(SPIDER, 'dev.json'));
    const bench = { ...full, tasks: full.tasks.slice(0, 40) };
    // The gold of the next task as the prediction: wrong for most tasks, and results differ.
    const system = {
      system: 'shifted',
      file: 'shifted',
      byTask: new Map(bench.tasks.map((t, i) => [t.id, { taskId: t.id, sql: bench.tasks[(i + 1) % bench.tasks.length]!.goldSql }])),
    };
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-lean-'));
    const previewed: number[] = [];
    const correct: number[] = [];
    for (const keepRows of [false, true]) {
      const store = openRunStore(join(dir, `${keepRows}.db`));
      const engine = new ExecutionEngine({ dbRoot: join(SPIDER, 'database'), workers: 2, store });
      try {
        const run = await runScore(bench, [system], engine, { comparator: 'bird', metrics: ['ex'], keepRows });
        correct.push(run.systems[0]!.correct);
        const previews = await runPreviews(engine, bench, [system]);
        previewed.push([...previews.gold, ...previews.pred[0]!].filter((p) => p !== undefined).length);
      } finally {
        await engine.close();
        store.close();
      }
    }
    expect(correct[0]).toBe(correct[1]);
    expect(previewed).toEqual([0, 80]);
  }, 300_000);
});
