import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, SPIDER } from '../helpers/cli.js';

/*
 * A live judge over a validation set of our own on real Spider dev databases, answered by the
 * replay provider (recorded responses): every item goes through the real cascade and
 * execution engine, and its verdict joins the human labels like a recorded judge's.
 */
const dir = mkdtempSync(join(tmpdir(), 'validate-live-'));
const line = (o: object) => JSON.stringify(o);
const setFile = join(dir, 'live-set.jsonl');
writeFileSync(
  setFile,
  [
    // pred-error: no call, judged wrong; humans agree.
    line({ id: 'e', db_id: 'concert_singer', question: 'How many singers do we have?', gold_sql: 'SELECT count(*) FROM singer', predicted_sql: 'SELECT count(*) FROM singers_missing', label: false }),
    // results equal: the Refuter in match mode upholds; humans agree.
    line({ id: 'm', db_id: 'concert_singer', question: 'What is the total number of singers?', gold_sql: 'SELECT count(*) FROM singer', predicted_sql: 'SELECT count(singer_id) FROM singer', label: true }),
    // results differ: the Prover rejects; humans said correct (the judge over-flags it).
    line({ id: 'p', db_id: 'concert_singer', question: 'What is the average, minimum, and maximum age of all singers from France?', gold_sql: "SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'", predicted_sql: 'SELECT avg(age), min(age), max(age) FROM singer', label: true }),
    // a database that is not there: no verdict (coverage 3/4).
    line({ id: 'x', db_id: 'no_such_db', question: 'q', gold_sql: 'SELECT 1', predicted_sql: 'SELECT 1', label: true }),
  ].join('\n'),
);
const replay = join(dir, 'replay.jsonl');
writeFileSync(
  replay,
  [
    line({ contains: ['returned exactly the same result', 'total number of singers'], text: JSON.stringify({ reason: 'same count', overturn: false, ambiguity: 'none', goldCorrect: true }) }),
    line({ contains: ['You are the Prover', 'singers from France'], text: JSON.stringify({ expectedAnswer: 'three numbers', sqlDescription: 'all singers', reason: 'France filter missing', verdict: false }) }),
  ].join('\n') + '\n',
);

describe('validate with a live judge (replay provider, real Spider databases)', () => {
  it('judges the items, joins the human labels and reports coverage', async () => {
    const r = await runCli([
      'validate',
      '--set', setFile,
      '--provider', 'replay',
      '--replay', replay,
      '--model', 'gpt-4o-2024-08-06',
      '--db-root', join(SPIDER, 'database'),
      '--store', join(dir, 'run.db'),
      '--iterations', '50',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.judges).toHaveLength(1);
    const j = out.judges[0];
    expect(j.name).toMatch(/^gpt-4o-2024-08-06/);
    expect(j.subsets.all).toMatchObject({ n: 3, items: 4 });
    expect(j.subsets.all.coverage).toBe(0.75);
    expect(j.subsets.all.confusion).toEqual({ tp: 1, fp: 0, fn: 1, tn: 1 });
    expect(j.cost.callsPerItem).toBeCloseTo(2 / 3, 10);
    expect(r.stderr).toMatch(/1 items have no database/);
  }, 60_000);
});
