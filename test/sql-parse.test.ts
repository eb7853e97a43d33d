import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSql, tablesFromTokens, tablesOf, type ParseMode } from '../src/sql/parse.js';
import { SPIDER } from './helpers/cli.js';

const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as Array<{ query: string }>;

describe('parseSql on Spider dev gold', () => {
  it('parses at least 99% of the 1,034 gold queries and never throws', () => {
    const modes: Record<ParseMode | 'failed', number> = { sqlite: 0, mysql: 0, 'quoted-sqlite': 0, 'quoted-mysql': 0, failed: 0 };
    for (const { query } of dev) {
      const r = parseSql(query);
      if (r.ok) modes[r.mode]++;
      else modes.failed++;
    }
    console.log('node-sql-parser modes over Spider dev gold:', modes);
    expect(dev.length).toBe(1034);
    expect(modes.sqlite).toBeGreaterThan(900);
    expect(modes.failed).toBeLessThanOrEqual(Math.floor(dev.length * 0.01));
  });

  it('gives table names for every gold query, parsed or not', () => {
    for (const { query } of dev) expect(tablesOf(query).length, query).toBeGreaterThan(0);
  });

  it('the token fallback finds the same tables as the parser on every gold query', () => {
    let differ = 0;
    for (const { query } of dev) {
      const viaParser = new Set(tablesOf(query).map((t) => t.toLowerCase()));
      const viaTokens = new Set(tablesFromTokens(query).map((t) => t.toLowerCase()));
      if (viaParser.size !== viaTokens.size || [...viaTokens].some((t) => !viaParser.has(t))) differ++;
    }
    expect(differ).toBe(0);
  });

  it('quotes a keyword used as a table name (FROM SHOW) instead of failing', () => {
    const r = parseSql('SELECT avg(Attendance) FROM SHOW');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.mode).toMatch(/^quoted-/);
    expect(tablesOf('SELECT avg(Attendance) FROM SHOW')).toEqual(['SHOW']);
  });

  it('never throws on garbage and reports an error', () => {
    const r = parseSql('SELEC name FRM t WHERE ((');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
    expect(() => tablesOf('))) FROM')).not.toThrow();
  });
});

describe('tablesOf', () => {
  const q =
    'SELECT T1.name, count(*) FROM singer AS T1 JOIN concert AS T2 ON T1.singer_id = T2.singer_id WHERE T2.year = 2014 GROUP BY T1.name';

  it('uses the parser when it can', () => {
    expect(tablesOf(q)).toEqual(expect.arrayContaining(['singer', 'concert']));
    expect(tablesOf(q)).toHaveLength(2);
  });

  it('falls back to tokens when the parser fails', () => {
    // A trailing garbage token makes every parser mode fail.
    const bad = 'SELECT a.x, y FROM alpha AS a JOIN beta b ON a.id = b.id, gamma WHERE z > 1 @@@ (';
    expect(parseSql(bad).ok).toBe(false);
    expect(tablesOf(bad)).toEqual(['alpha', 'beta', 'gamma']);
  });
});
