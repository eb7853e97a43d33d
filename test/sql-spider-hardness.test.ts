import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spiderHardness, spiderHardnessDetailed, type SpiderHardness } from '../src/sql/spider-hardness.js';
import { SPIDER } from './helpers/cli.js';

const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as Array<{ query: string }>;

/** [level, component1, component2, others] */
type Expected = [SpiderHardness, number, number, number];

function detail(sql: string): Expected {
  const d = spiderHardnessDetailed(sql);
  return [d.level, d.component1, d.component2, d.others];
}

describe('spiderHardness on Spider dev', () => {
  it('reproduces the official distribution exactly: easy 248, medium 446, hard 174, extra 166', () => {
    const counts: Record<SpiderHardness, number> = { easy: 0, medium: 0, hard: 0, extra: 0 };
    let unparsed = 0;
    for (const { query } of dev) {
      const d = spiderHardnessDetailed(query);
      counts[d.level]++;
      if (!d.parsed) unparsed++;
      expect(spiderHardness(query)).toBe(d.level);
    }
    expect(counts).toEqual({ easy: 248, medium: 446, hard: 174, extra: 166 });
    expect(unparsed).toBe(0);
  });

  // Component counts checked by hand against the `sql` dicts Spider ships in dev.json.
  it.each<[number, Expected]>([
    [0, ['easy', 0, 0, 0]], // SELECT count(*) FROM singer
    [14, ['medium', 1, 0, 1]], // BETWEEN 5000 AND 10000 is one condition; two select columns
    [20, ['medium', 2, 0, 1]], // WHERE a OR b: the OR counts in component1, the list length in others
    [28, ['hard', 1, 1, 0]], // NOT IN (subquery): nested; the NOT flag is one "aggregate"
    [39, ['medium', 2, 0, 1]], // LIKE counts in component1
    [41, ['extra', 2, 1, 1]], // join + where, INTERSECT nests the second query
    [225, ['extra', 4, 0, 0]], // ON a = b OR a = c: Spider's column value swallows the OR
    [265, ['medium', 2, 0, 0]], // HAVING count(*) > 1 is not an aggregate for count_others
    [427, ['extra', 1, 1, 1]], // count(*) plus the NOT flag make two "aggregates"
    [744, ['easy', 0, 0, 0]], // a subquery in FROM is a table unit, its INTERSECT does not count
  ])('dev item %i', (index, expected) => {
    expect(detail(dev[index]!.query)).toEqual(expected);
  });
});

describe('official quirks on hand-written queries', () => {
  it.each<[string, Expected]>([
    // Each 'and'/'or' in HAVING counts as an aggregate: count(*) + 'and' = 2 → others 1.
    ['SELECT count(*) FROM t GROUP BY a HAVING count(*) > 1 AND sum(b) < 5', ['medium', 1, 0, 1]],
    ['SELECT a FROM t GROUP BY a HAVING count(*) > 1 AND sum(b) < 5', ['easy', 1, 0, 0]],
    // NOT LIKE is a LIKE condition.
    ["SELECT a FROM t WHERE b NOT LIKE '%x%'", ['medium', 2, 0, 0]],
    // Two WHERE conditions: len(where) = 3 > 1.
    ['SELECT a FROM t WHERE b = 1 AND c = 2', ['medium', 1, 0, 1]],
    // Only the first set operation nests; the chain belongs to the nested query.
    ['SELECT a FROM t UNION SELECT a FROM u UNION SELECT a FROM v', ['hard', 0, 1, 0]],
    // ORDER BY aggregates count, both operands of a - b.
    ['SELECT a FROM t GROUP BY a ORDER BY max(b) - min(b) DESC LIMIT 1', ['hard', 3, 0, 1]],
    // Subqueries as both BETWEEN values.
    ['SELECT a FROM t WHERE b BETWEEN (SELECT min(b) FROM u) AND (SELECT max(b) FROM u)', ['extra', 1, 2, 0]],
  ])('%s', (sql, expected) => {
    expect(detail(sql)).toEqual(expected);
  });
});

describe('robustness', () => {
  it('never throws and flags SQL outside Spider grammar', () => {
    for (const sql of ['', ')))(((', 'SELECT', 'DROP TABLE x', 'WITH c AS (SELECT 1) SELECT * FROM c', 'SELECT a FROM t WHERE (a = 1 OR b = 2) AND NOT c']) {
      const d = spiderHardnessDetailed(sql);
      expect(['easy', 'medium', 'hard', 'extra']).toContain(d.level);
    }
    expect(spiderHardnessDetailed('SELECT a FROM t WHERE (a = 1 OR b = 2) AND c = 3').parsed).toBe(false);
    expect(spiderHardnessDetailed('SELECT a FROM t WHERE (a = 1 OR b = 2) AND c = 3').component1).toBe(2);
    expect(spiderHardnessDetailed('DROP TABLE x').parsed).toBe(false);
  });

});
