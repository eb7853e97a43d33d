import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SPIDER } from './cli.js';

/** Three published systems' Spider dev predictions (name, file under predictions/). */
export const SUBSET_PREDICTIONS: [string, string][] = [
  ['c3', 'c3/predicted_sql.txt'],
  ['dail-sql', 'dail-sql/DAIL-SQL+GPT-4.txt'],
  ['resdsql', 'resdsql/RESDSQL_3B.sql'],
];

/**
 * Writes Spider dev questions [from, to) to `questions` and each system's predictions for them to
 * `<dir>/<name>.sql`; returns the `--system name=file` values.
 */
export function writeSpiderSubset(dir: string, questions: string, from: number, to: number): string[] {
  const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
  writeFileSync(questions, JSON.stringify(dev.slice(from, to)));
  return SUBSET_PREDICTIONS.map(([name, file]) => {
    const lines = readFileSync(join(SPIDER, 'predictions', file), 'utf8').split('\n').slice(from, to);
    writeFileSync(join(dir, `${name}.sql`), lines.join('\n') + '\n');
    return `${name}=${join(dir, `${name}.sql`)}`;
  });
}
