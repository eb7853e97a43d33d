import { writeFileSync } from 'node:fs';

/*
 * A validation set of our own on real Spider dev questions (concert_singer), one item per route of
 * the judge's cascade, with the human label each should get. The judge's scripted answers for
 * them are those of test/judge/spider-fixture.ts (`routeScript`, tasks 0, 1 and 4) and the replay
 * file below.
 */
const line = (o: object): string => JSON.stringify(o);

export const LIVE_SET_ITEMS = [
  // pred-error: no call, judged wrong; humans agree.
  line({ id: 'e', db_id: 'concert_singer', question: 'How many singers do we have?', gold_sql: 'SELECT count(*) FROM singer', predicted_sql: 'SELECT count(*) FROM singers_missing', label: false }),
  // results equal: the Refuter in match mode upholds; humans agree.
  line({ id: 'm', db_id: 'concert_singer', question: 'What is the total number of singers?', gold_sql: 'SELECT count(*) FROM singer', predicted_sql: 'SELECT count(singer_id) FROM singer', label: true }),
  // results differ: the judge rejects (the France filter is missing); humans said correct (the judge over-flags it).
  line({ id: 'p', db_id: 'concert_singer', question: 'What is the average, minimum, and maximum age of all singers from France?', gold_sql: "SELECT avg(age), min(age), max(age) FROM singer WHERE country = 'France'", predicted_sql: 'SELECT avg(age), min(age), max(age) FROM singer', label: true }),
];

/** An item whose database is not there: no verdict (coverage 3/4). */
export const NO_DATABASE_ITEM = line({ id: 'x', db_id: 'no_such_db', question: 'q', gold_sql: 'SELECT 1', predicted_sql: 'SELECT 1', label: true });

/** Writes the set (plus `extra` lines) as sqlboard JSONL; returns the file. */
export function writeLiveSet(file: string, extra: string[] = []): string {
  writeFileSync(file, [...LIVE_SET_ITEMS, ...extra].join('\n'));
  return file;
}

/** The replay provider's recorded answers for the set: the Refuter upholds the match, the Prover rejects the France question. */
export function writeLiveReplay(file: string): string {
  writeFileSync(
    file,
    [
      line({ contains: ['returned exactly the same result', 'total number of singers'], text: JSON.stringify({ reason: 'same count', overturn: false, ambiguity: 'none', goldCorrect: true }) }),
      line({ contains: ['You are the Prover', 'singers from France'], text: JSON.stringify({ expectedAnswer: 'three numbers', sqlDescription: 'all singers', reason: 'France filter missing', verdict: false }) }),
    ].join('\n') + '\n',
  );
  return file;
}
