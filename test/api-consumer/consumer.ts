// Type-checked by test/api-package.test.ts: a program that uses sqlboard by its package name.
import { audit, batchStatus, importRose, judge, leaderboard, score, stats, validate, UserError, type CommandResult, type GatedResult, type LeaderboardResult, type Report } from 'sqlboard';

export async function use(): Promise<string[]> {
  const r: CommandResult = await stats({ statistic: 'interval', k: 5, n: 10, confidence: 0.9 });
  const report: Report = r.report;
  const lb: LeaderboardResult = await leaderboard({ items: ['a.jsonl'], seed: 1, by: 'db' });
  const rose = await importRose({ dir: 'run', system: 'x' });
  // @ts-expect-error -- a statistic needs its own options: `a` and `b` belong to agreement.
  await stats({ statistic: 'interval', a: 'x.csv', b: 'y.csv' });
  // @ts-expect-error -- `by` takes only 'db'.
  await leaderboard({ by: 'system' });
  const scored: GatedResult = await score({ questions: 'dev.json', dbRoot: 'database', system: ['a=a.sql'], onProgress: (stage, done, total) => void [stage, done, total] });
  const judged: GatedResult = await judge({ questions: 'q.json', dbRoot: 'db', system: ['a=a.sql'], provider: 'replay', replay: 'r.jsonl', model: 'gpt-4o-2024-08-06' });
  const audited = await audit({ questions: 'q.json', dbRoot: 'db', agent: ['a=a.sql', 'b=b.sql', 'c=c.sql'] });
  const flagged: number | undefined = audited.waiting === undefined ? audited.report.sections.length : audited.waiting;
  const validated = await validate({ set: ['s.jsonl'], judge: ['j=j.jsonl'] });
  const kappa: number | undefined = validated.json.judges[0]?.subsets.all?.kappa;
  await batchStatus();
  // @ts-expect-error -- the provider is one of openai, gemini, replay.
  await judge({ questions: 'q.json', dbRoot: 'db', system: [], provider: 'claude', model: 'x' });
  // @ts-expect-error -- score's comparator is bird or spider.
  await score({ comparator: 'exact' });
  return [scored.partial.join(), judged.notes.join(), String(flagged), String(kappa), report.title, lb.partial.join(), String(rose.notes.length), String(new UserError('x').exitCode)];
}
