import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpiderSchema } from '../src/benchmark/spider-tables.js';
import { tablesOf } from '../src/sql/parse.js';
import { tryParseSpiderSql } from '../src/sql/spider-parse.js';
import { spiderHardness } from '../src/sql/spider-hardness.js';
import { ROOT, runCli } from './helpers/cli.js';

const BUNDLED = join(ROOT, 'data', 'spider');
const C3 = join(BUNDLED, 'predictions', 'c3', 'predicted_sql.txt');
const schema = readSpiderSchema(join(BUNDLED, 'database', 'concert_singer', 'concert_singer.sqlite'));

/** `depth` subqueries, each inside the previous one's `IN (...)`. */
function nestedIn(depth: number): string {
  let sql = 'SELECT name FROM singer';
  for (let i = 0; i < depth; i++) sql = `SELECT name FROM singer WHERE name IN (${sql})`;
  return sql;
}
/** `n` UNIONs in a row: the official parser recurses once per operand. */
const unionChain = (n: number): string => Array<string>(n + 1).fill('SELECT name FROM singer').join(' UNION ');

describe('exact match on deeply nested predictions (issue 30, item 1)', () => {
  it('fails where CPython 3.11 running process_sql.py raises RecursionError, and never overflows the JS stack', () => {
    // Measured with taoyds/spider's process_sql.py on CPython 3.11.7 called as evaluation.py calls it
    // (<module> → evaluate → get_sql): nesting 248 and a 992-UNION chain raise RecursionError, which
    // evaluation.py's bare `except:` turns into the empty query; one less parses.
    expect(tryParseSpiderSql(schema, nestedIn(247))).toBeDefined();
    expect(tryParseSpiderSql(schema, nestedIn(248))).toBeUndefined();
    expect(tryParseSpiderSql(schema, unionChain(991))).toBeDefined();
    expect(tryParseSpiderSql(schema, unionChain(992))).toBeUndefined();
    for (const depth of [1_500, 100_000]) expect(tryParseSpiderSql(schema, nestedIn(depth))).toBeUndefined();
  });

  it('the hardness and table readers stay within their bounds on 100,000 levels', () => {
    const deep = nestedIn(100_000);
    for (const sql of [deep, unionChain(100_000)]) expect(['easy', 'medium', 'hard', 'extra']).toContain(spiderHardness(sql));
    // node-sql-parser is not given it; the token reading still finds the table.
    expect(tablesOf(deep)).toEqual(['singer']);
  });

  it('the CLI scores the bundled Spider dev with 1,500- and 100,000-deep predictions: those items EM 0 (unparsed), the run goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-deep-'));
    const lines = readFileSync(C3, 'utf8').split('\n');
    lines[0] = nestedIn(1_500);
    lines[1] = nestedIn(100_000);
    lines[2] = unionChain(991);
    const file = join(dir, 'deep.sql');
    writeFileSync(file, lines.join('\n'));
    const items = join(dir, 'items.jsonl');
    const r = await runCli(['score', '--metric', 'em', '--system', `deep=${file}`, '--system', `c3=${C3}`, '--store', join(dir, 'store.db'), '--items', items, '--json']);
    expect(r.stderr).not.toMatch(/internal error|RangeError/);
    expect(r.code).toBe(0);
    const rows = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { system: string; taskId: string; em: number; emParsed?: boolean });
    const deep = (id: string) => rows.find((x) => x.system === 'deep' && x.taskId === id)!;
    expect([deep('0').em, deep('0').emParsed]).toEqual([0, false]);
    expect([deep('1').em, deep('1').emParsed]).toEqual([0, false]);
    // 991 UNIONs are parsed, as the official parser parses them, and scored against the gold.
    expect([deep('2').em, deep('2').emParsed]).toEqual([0, undefined]);
    // Every other item scores as c3's own.
    const byTask = (s: string) => new Map(rows.filter((x) => x.system === s).map((x) => [x.taskId, x.em]));
    const [mine, c3] = [byTask('deep'), byTask('c3')];
    expect(c3.size).toBe(1034);
    for (const [id, em] of c3) if (!['0', '1', '2'].includes(id)) expect(mine.get(id)).toBe(em);
  }, 300_000);
});
