// Type-checked by test/api-package.test.ts: a program that uses sqlboard by its package name.
import { importRose, leaderboard, stats, UserError, type CommandResult, type LeaderboardResult, type Report } from 'sqlboard';

export async function use(): Promise<string[]> {
  const r: CommandResult = await stats({ statistic: 'interval', k: 5, n: 10, confidence: 0.9 });
  const report: Report = r.report;
  const lb: LeaderboardResult = await leaderboard({ items: ['a.jsonl'], seed: 1, by: 'db' });
  const rose = await importRose({ dir: 'run', system: 'x' });
  // @ts-expect-error -- a statistic needs its own options: `a` and `b` belong to agreement.
  await stats({ statistic: 'interval', a: 'x.csv', b: 'y.csv' });
  // @ts-expect-error -- `by` takes only 'db'.
  await leaderboard({ by: 'system' });
  return [report.title, lb.partial.join(), String(rose.notes.length), String(new UserError('x').exitCode)];
}
