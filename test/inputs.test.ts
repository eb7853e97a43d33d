import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { readItems } from '../src/benchmark/items.js';
import { devGoldFile, runCli, SPIDER, TAB_SYSTEM } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-inputs-'));
const DB = join(SPIDER, 'database');
// Spider dev tasks 0-79: concert_singer (45 tasks), pets_1 (35).
const N = 80;
const slice = (file: string, name: string): string => {
  const out = join(tmp, name);
  writeFileSync(out, readFileSync(file, 'utf8').split('\n').slice(0, N).join('\n') + '\n');
  return out;
};
const DEV = join(tmp, 'dev.json');
writeFileSync(DEV, JSON.stringify((JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[]).slice(0, N)));
const GOLD = slice(devGoldFile(), 'dev_gold.sql');
const TA = slice(TAB_SYSTEM.file, 'chang.sql');
// Hand labels in the layout of SALUS's Spider ground truth (query_id,label; 0 = wrong gold) for a sample of tasks.
const GT = join(tmp, 'GT_spider.csv');
writeFileSync(GT, ['query_id,label', ...[3, 6, 12, 17, 30, 41, 52, 66, 79, 150].map((id, i) => `${id},${i % 3 === 0 ? 0 : 1}`)].join('\n') + '\n');
const store = join(tmp, 'store.db');

interface Out {
  tasks: number;
  systems: { name: string; correct: number; byDifficulty: Record<string, { n: number; correct: number }>; clean?: { n: number; correct: number } }[];
  flags?: { flagged: number };
  skippedDatabases?: { dbId: string; tasks: number; problem: string }[];
}

describe('inputs as the official tools and SALUS write them', () => {
  it('--questions dev_gold.sql (SQL<TAB>db_id) scores item for item as the JSON questions do', async () => {
    const a = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', store, '--system', `ta=${TA}`, '--json', '--items', join(tmp, 'a.jsonl')]);
    const b = await runCli(['score', '--questions', GOLD, '--db-root', DB, '--store', store, '--system', `ta=${TA}`, '--json', '--items', join(tmp, 'b.jsonl')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const ja = JSON.parse(a.stdout) as Out;
    const jb = JSON.parse(b.stdout) as Out;
    expect(jb.tasks).toBe(N);
    expect(jb.systems[0]!.byDifficulty).toEqual(ja.systems[0]!.byDifficulty);
    const verdicts = (f: string) => readItems(f).map((r) => [r.taskId, r.dbId, r.correct]);
    expect(verdicts(join(tmp, 'b.jsonl'))).toEqual(verdicts(join(tmp, 'a.jsonl')));
  });

  it("SALUS's ground-truth CSV (query_id,label) is accepted as --flags by score and leaderboard", async () => {
    const gt = readFileSync(GT, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const wrongHere = gt.filter(([id, label]) => Number(id) < N && label === '0').length;
    expect(wrongHere).toBeGreaterThan(0);
    const r = await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', store, '--system', `ta=${TA}`, '--flags', GT, '--json', '--items', join(tmp, 'c.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.flags!.flagged).toBe(wrongHere);
    expect(out.systems[0]!.clean!.n).toBe(N - wrongHere);
    const lb = await runCli(['leaderboard', join(tmp, 'c.jsonl'), '--flags', GT, '--iterations', '100', '--json']);
    expect(lb.code, lb.stderr).toBe(0);
    expect((JSON.parse(lb.stdout) as { flags: { flagged: number } }).flags.flagged).toBe(wrongHere);
  });

  it('--skip-missing-db scores the tasks it can, lists the skipped database and exits 3; without it the run stops', async () => {
    const root = join(tmp, 'dbs');
    mkdirSync(root);
    symlinkSync(join(DB, 'concert_singer'), join(root, 'concert_singer'));
    const args = ['score', '--questions', DEV, '--db-root', root, '--store', store, '--system', `ta=${TA}`];
    const stop = await runCli([...args, '--json']);
    expect(stop.code).toBe(ExitCode.UserError);
    expect(stop.stderr).toMatch(/unknown database "pets_1"/);
    expect(stop.stdout).toBe('');

    const r = await runCli([...args, '--skip-missing-db', '--json']);
    expect(r.code, r.stderr).toBe(ExitCode.Partial);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.tasks).toBe(45);
    expect(out.skippedDatabases).toEqual([{ dbId: 'pets_1', tasks: 35, problem: expect.stringMatching(/pets_1.* does not exist/) }]);
    expect(r.stderr).toMatch(/partial result: skipped database pets_1 \(35 tasks\)/);
    // The concert_singer tasks score as in the full run.
    const full = JSON.parse((await runCli(['score', '--questions', DEV, '--db-root', DB, '--store', store, '--system', `ta=${TA}`, '--json', '--by', 'db'])).stdout) as {
      byDb: { dbId: string; systems: { correct: number }[] }[];
    };
    expect(out.systems[0]!.correct).toBe(full.byDb.find((d) => d.dbId === 'concert_singer')!.systems[0]!.correct);
    const table = await runCli([...args, '--skip-missing-db']);
    expect(table.stdout).toMatch(/--skip-missing-db: 35 tasks on 1 unusable databases were not scored \(pets_1\)/);
  });
});
