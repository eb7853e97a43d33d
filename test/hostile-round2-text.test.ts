import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statementText } from '../src/audit/sql-text.js';
import { formatSpiderText } from '../src/benchmark/spider-text.js';
import type { Benchmark, PredictionSet } from '../src/benchmark/types.js';
import { spiderExecutedSql } from '../src/execution/compare-spider.js';
import { emPredictionText } from '../src/execution/em-run.js';
import { pythonStrip } from '../src/sql/python-text.js';
import { finalPeriod, spiderTokens } from '../src/sql/spider-tokenize.js';
import { ROOT, runCli } from './helpers/cli.js';

/**
 * Issue 30, item 2: every text pass over a prediction is linear. Each input below holds runs of
 * whitespace (or semicolons, quotes, `>=`) megabytes long; a quadratic pass takes hours on them
 * (160k spaces took 40 s), so these tests fail by their timeout without the fix. No timing is asserted.
 */
const MB = 1 << 20;
const spaces = (n: number, unit = ' '): string => unit.repeat(n);
const LONG = 5 * 60_000;

describe('text passes over a prediction stay linear (issue 30, item 2)', () => {
  it("Python's str.strip() on multi-megabyte inner and outer whitespace runs", () => {
    const inner = `SELECT 1${spaces(4 * MB)}FROM t`;
    expect(pythonStrip(` \u3000\x1c${inner}\u0085 \n`)).toBe(inner);
    // U+FEFF is not Python whitespace: it stays (JS trim would drop it).
    expect(pythonStrip('\ufeffx ')).toBe('\ufeffx');
    expect(spiderExecutedSql(`SELECT a${spaces(4 * MB, '\t')}FROM t `, false, true)).toBe(`SELECT a${spaces(4 * MB, '\t')}FROM t`);
  }, LONG);

  it("Spider's tokenizer: nltk's final-period rule, quoted values and merged comparisons", () => {
    const toks = spiderTokens(`SELECT a FROM t WHERE b = 1.${spaces(2 * MB, ' \u3000')}x`);
    expect(toks.slice(-3)).toEqual(['=', '1.', 'x']);
    expect(spiderTokens(`SELECT a FROM t WHERE b = 1${spaces(4 * MB)}.`).slice(-2)).toEqual(['1', '.']);
    const quoted = spiderTokens(`SELECT a FROM t WHERE ${Array.from({ length: 100_000 }, (_, i) => `b = 'v${i}'`).join(' OR ')}`);
    expect(quoted.at(-1)).toBe('"v99999"');
    const merged = spiderTokens(`SELECT a FROM t WHERE ${Array<string>(200_000).fill('b > = 1').join(' AND ')}`);
    expect(merged.filter((t) => t === '>=')).toHaveLength(200_000);
    expect(emPredictionText(`${spaces(MB)}SELECT 1${spaces(MB)}`)).toBe('SELECT 1');
  }, LONG);

  it('finalPeriod is the nltk rule it replaces, on every short text over an alphabet of its special characters', () => {
    const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
    const rules: [RegExp, string, string, string][] = [
      [new RegExp(`([^.])(\\.)([\\])}>"'»”’ ]*)[${PY_SPACE}]*$`, 'gu'), '$1 $2 $3 ', `])}>"'»”’ `, ' '],
      [new RegExp(`([^.])(\\.)([\\])}>"']*)[${PY_SPACE}]*$`, 'gu'), '$1 $2$3 ', `])}>"'`, ''],
    ];
    const alphabet = ['a', '.', ' ', '\n', ')', '"', '»', '\u3000', '\u{1F600}'];
    let texts = [''];
    for (let len = 1; len <= 5; len++) {
      texts = texts.flatMap((t) => (t.length === len - 1 ? alphabet.map((c) => t + c) : []));
      for (const t of texts) for (const [re, sub, closers, gap] of rules) expect(finalPeriod(t, closers, gap)).toBe(t.replace(re, sub));
    }
  }, LONG);

  it('Spider text export, and the audit statement text', () => {
    const sql = `SELECT 1${spaces(4 * MB)}FROM t\n${spaces(MB)}WHERE x`;
    const bench = { tasks: [{ id: '0', dbId: 'db' }] } as unknown as Benchmark;
    const set = { byTask: new Map([['0', { taskId: '0', sql }]]) } as unknown as PredictionSet;
    expect(formatSpiderText(bench, set)).toBe(`SELECT 1${spaces(4 * MB)}FROM t WHERE x\tdb\n`);
    expect(statementText(`SELECT 1${';'.repeat(4 * MB)} `)).toBe('SELECT 1');
    expect(statementText(`SELECT 1;${spaces(4 * MB)}; ;`)).toBe(`SELECT 1;${spaces(4 * MB)}; `);
  }, LONG);

  it('the CLI scores the bundled Spider dev (ex, em) with predictions holding megabytes of whitespace and semicolons', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-ws-'));
    const c3 = join(ROOT, 'data', 'spider', 'predictions', 'c3', 'predicted_sql.txt');
    const lines = readFileSync(c3, 'utf8').split('\n');
    lines[0] = `SELECT count(*) FROM singer${spaces(3 * MB)}WHERE 1 = 1.${spaces(MB, ' \u3000')}x`;
    lines[1] = `SELECT count(*) FROM singer${';'.repeat(MB)} `;
    lines[2] = `${spaces(2 * MB, '\u2003')}SELECT count(*) FROM singer${spaces(2 * MB, '\u2003')}`;
    const file = join(dir, 'ws.sql');
    writeFileSync(file, lines.join('\n'));
    const items = join(dir, 'items.jsonl');
    const r = await runCli(['score', '--system', `ws=${file}`, '--store', join(dir, 'store.db'), '--items', items, '--json']);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const rows = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { taskId: string; correct: boolean; em: number; predError?: string });
    expect(rows).toHaveLength(1034);
    const row = (id: string) => rows.find((x) => x.taskId === id)!;
    // Task 1 (how many singers) is right: the statement runs, its empty followers are ignored, as
    // Python's sqlite3 does. Task 2 runs once str.strip() has removed the EM SPACEs (Python whitespace).
    expect(row('1').correct).toBe(true);
    expect(row('2').predError).toBeUndefined();
    expect(row('0').em).toBe(0);
  }, LONG);
});
