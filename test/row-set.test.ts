import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowKey } from '../src/values/python-value.js';
import { rowSetDigest, type SortBy } from '../src/execution/row-set.js';
import { runQuery } from '../src/execution/run-query.js';
import type { Cell } from '../src/execution/types.js';
import { ROOT, SPIDER } from './helpers/cli.js';
import { spiderDatabases } from './helpers/spider-db.js';

/**
 * The reference: Python's `set(rows)`, as the comparison without a digest keys it (compare-bird,
 * rowKey), written as one string. Two row lists are equal sets exactly when these strings are.
 */
function pythonSet(rows: readonly (readonly Cell[])[]): string {
  return JSON.stringify([...new Set(rows.map(rowKey))].sort());
}

/** A seeded generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The rows shuffled, with some repeated, and each cell possibly swapped for a value Python calls equal. */
function sameSet(rows: readonly (readonly Cell[])[], rnd: () => number): Cell[][] {
  const twin = (v: Cell): Cell => {
    if (typeof v === 'number' && Number.isInteger(v) && rnd() < 0.5) return Number.isSafeInteger(v) ? (v === 0 ? -0 : BigInt(v)) : BigInt(v);
    if (typeof v === 'bigint' && rnd() < 0.5 && Number(v) === Number(v) && BigInt(Number(v)) === v) return Number(v);
    if (v instanceof Uint8Array) return new Uint8Array(v);
    return v;
  };
  const out = rows.map((r) => r.map(twin));
  for (const r of rows) if (rnd() < 0.3) out.push(r.map(twin));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Asserts that the digest is a function of the Python set and tells every two sets apart. */
function expectDigestIsTheSet(cases: readonly (readonly (readonly Cell[])[])[]): void {
  const bySet = new Map<string, string>();
  const byDigest = new Map<string, string>();
  for (const rows of cases) {
    const set = pythonSet(rows);
    const digest = rowSetDigest(rows);
    // Both ways of sorting give the one order ('auto' picks by the number of rows).
    for (const sortBy of ['packed', 'comparator'] satisfies SortBy[]) expect(rowSetDigest(rows, sortBy)).toBe(digest);
    expect(bySet.get(set) ?? digest, set).toBe(digest);
    expect(byDigest.get(digest) ?? set).toBe(set);
    bySet.set(set, digest);
    byDigest.set(digest, set);
  }
}

/** Cells that Python tells apart in every way that matters here, and some it does not. */
const VALUES: Cell[] = [
  null, 0, -0, 0n, 1, 1n, 1.5, -1.5, '1', '1.0', '', 'a', 'A', 'ab', '"', '\\', '\u0000', '\ud800', '\ufffd', '\u{1f600}',
  2 ** 53, 2n ** 53n, 2n ** 53n + 1n, 2 ** 63, 2n ** 63n, 2n ** 63n - 1n, -(2n ** 63n), 1e300, BigInt(1e300), 1e-7,
  Infinity, -Infinity, new Uint8Array([]), new Uint8Array([0x61]), new Uint8Array([0x61, 0x62]), new Uint8Array([0x31]),
  '{"i":"1"}', 'YQ==', '[1]', 2 ** 64, 2n ** 64n, 2n ** 64n - 1n, 2 ** 70, 2n ** 70n, 2n ** 70n + 1n, -(2 ** 70),
];

describe('the row-set digest (Python set equality, for the bird comparison)', () => {
  it('is equal exactly for equal sets of random rows of mixed values, whatever their order, repeats and int/float form', () => {
    const rnd = random(15);
    const cases: Cell[][][] = [];
    for (let c = 0; c < 3000; c++) {
      const width = 1 + Math.floor(rnd() * 3);
      // Few values and few rows, so that many cases are the same set.
      const pool = VALUES.slice(0, 3 + Math.floor(rnd() * VALUES.length));
      const rows = Array.from({ length: Math.floor(rnd() * 5) }, () =>
        Array.from({ length: width }, () => pool[Math.floor(rnd() * pool.length)]!),
      );
      cases.push(rows, sameSet(rows, rnd));
    }
    expectDigestIsTheSet(cases);
    // The equalities Python makes, one by one.
    expect(rowSetDigest([[1]])).toBe(rowSetDigest([[1n], [1.0]]));
    expect(rowSetDigest([[0]])).toBe(rowSetDigest([[-0]]));
    expect(rowSetDigest([[2 ** 53]])).toBe(rowSetDigest([[2n ** 53n]]));
    expect(rowSetDigest([[2 ** 53]])).not.toBe(rowSetDigest([[2n ** 53n + 1n]]));
    expect(rowSetDigest([[2 ** 63]])).not.toBe(rowSetDigest([[2n ** 63n - 1n]]));
    expect(rowSetDigest([[2 ** 70, 1e300]])).toBe(rowSetDigest([[2n ** 70n, BigInt(1e300)]]));
    expect(rowSetDigest([[2 ** 70]])).not.toBe(rowSetDigest([[2n ** 70n + 1n]]));
    expect(rowSetDigest([['1']])).not.toBe(rowSetDigest([[1]]));
    expect(rowSetDigest([[new Uint8Array([0x61])]])).not.toBe(rowSetDigest([['a']]));
    expect(rowSetDigest([[null]])).not.toBe(rowSetDigest([['null']]));
    expect(rowSetDigest([[Infinity]])).not.toBe(rowSetDigest([[null]]));
    expect(rowSetDigest([['\ud800']])).not.toBe(rowSetDigest([['\ufffd']]));
  });

  it('hashes more distinct rows than one JSON text holds (several hash updates) as one set alike', () => {
    const rnd = random(11);
    const rows: Cell[][] = Array.from({ length: 10_000 }, (_, i) => [i % 3 === 0 ? i : `r${i}`, i % 7 === 0 ? null : i / 8]);
    const digest = rowSetDigest(rows);
    for (const sortBy of ['packed', 'comparator'] satisfies SortBy[]) expect(rowSetDigest(sameSet(rows, rnd), sortBy)).toBe(digest);
    expect(rowSetDigest(rows.slice(1))).not.toBe(digest);
    expect(rowSetDigest([...rows, ['r0', 0]])).not.toBe(digest);
  });

  it('tells apart rows that tie on every character it samples, in any order (a hostile prediction)', () => {
    // Same length and same first, middle and last characters: every row falls in one tie group,
    // ordered by comparing cells; the verdicts must not change, only the speed.
    const rnd = random(7);
    const word = (): string => `a${'bc'[Math.floor(rnd() * 2)]}${'bc'[Math.floor(rnd() * 2)]}m${'bc'[Math.floor(rnd() * 2)]}z`;
    const cases: Cell[][][] = [];
    for (let c = 0; c < 500; c++) {
      const rows = Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => (rnd() < 0.5 ? [word()] : [word()]));
      const pairs = rows.map((r) => [r[0]!, word()]);
      cases.push(rows, sameSet(rows, rnd), pairs, sameSet(pairs, rnd));
    }
    expectDigestIsTheSet(cases);
  });

  it('is the Python set of every result of Spider dev golds and two systems\' predictions, with the order sorted by comparison alike', () => {
    const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string; query: string }[];
    const predictions = ['c3/predicted_sql.txt', 'resdsql/RESDSQL_3B.sql']
      .map((f) => join(ROOT, 'data', 'spider', 'predictions', f))
      .map((f) => readFileSync(f, 'utf8').split('\n').slice(0, dev.length));
    const { open, close } = spiderDatabases();
    const rnd = random(3);
    const cases: Cell[][][] = [];
    try {
      dev.forEach(({ db_id, query }, i) => {
        for (const sql of [query, ...predictions.map((p) => p[i] ?? '')]) {
          const r = runQuery(open(db_id), sql, 1_000_000);
          if (r.status !== 'ok') continue;
          cases.push(r.rows, sameSet(r.rows, rnd));
          // One distinct row fewer is another set.
          if (r.rows.length > 1) cases.push(r.rows.slice(1));
        }
      });
    } finally {
      close();
    }
    expect(cases.length).toBeGreaterThan(5000);
    expectDigestIsTheSet(cases);
  });
});
