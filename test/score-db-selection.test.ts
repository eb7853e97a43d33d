import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { oddStart } from '../src/benchmark/repairs.js';
import { ExitCode } from '../src/exit-codes.js';
import { ROOT, runCli } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-db-selection-'));
const SPIDER = join(ROOT, 'data', 'spider');
// Bundled Spider dev tasks 0-79: concert_singer (tasks 0-44), pets_1 (45-79).
const dev = (JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string; query: string }[]).slice(0, 80);
const DEV = join(tmp, 'dev.json');
writeFileSync(DEV, JSON.stringify(dev));
// The golds, except that some lines start with what LLM outputs start with: 2 fences, 1 prose and 1
// empty line on concert_singer, 3 fences and 2 SELECT lists without SELECT on pets_1.
const odd: Record<number, string> = {
  1: '```sql SELECT count(*) FROM singer',
  2: '```',
  3: 'sql placeholder',
  4: '',
  50: '```sql',
  51: '```sql SELECT 1',
  52: '``` SELECT 2',
  53: 'count(*) FROM pets',
  54: 'PetType , count(*) FROM pets GROUP BY PetType',
};
const PRED = join(tmp, 'pred.sql');
writeFileSync(PRED, dev.map((t, i) => odd[i] ?? t.query).join('\n') + '\n');
const ONLY_CONCERT = join(tmp, 'dbs');
mkdirSync(ONLY_CONCERT);
symlinkSync(join(SPIDER, 'database', 'concert_singer'), join(ONLY_CONCERT, 'concert_singer'));
const score = (dbRoot: string, ...args: string[]) =>
  runCli(['score', '--questions', DEV, '--db-root', dbRoot, '--store', join(tmp, 'store.db'), '--system', `p=${PRED}`, '--metric', 'ex', ...args]);

describe('what a prediction that is no statement starts with', () => {
  it.each([
    ['```sql\nSELECT 1', 'fence'],
    ['~~~\nSELECT 1', 'fence'],
    ['sql placeholder', 'prose'],
    ['Here is the SQL query: SELECT 1', 'prose'],
    ["I'm sorry, I cannot", 'prose'],
    ['', 'empty'],
    ['  \n ', 'empty'],
    ['COUNT(*) FROM singer;', 'select-list'],
    ['T1.name FROM singer AS T1', 'select-list'],
    ['name , age FROM singer', 'select-list'],
    ['DISTINCT name FROM singer', 'select-list'],
    ['* FROM singer', 'select-list'],
    ['"name" FROM singer', 'select-list'],
    ['name', 'select-list'],
    ['name IS NULL FROM singer', 'select-list'],
    ['SELECT 1', undefined],
    ['  with t AS (SELECT 1) SELECT * FROM t', undefined],
    ['-- a comment\nSELECT 1', undefined],
    ['(SELECT 1)', undefined],
  ] as const)('%j: %s', (sql, kind) => {
    expect(oddStart(sql)).toBe(kind);
  });
});

describe('score --db and the hints about what is scored', () => {
  it('a database that cannot be used stops the run and names --skip-missing-db and --db', async () => {
    const r = await score(ONLY_CONCERT);
    expect(r.code).toBe(ExitCode.UserError);
    expect(r.stderr).toMatch(/unknown database "pets_1".*does not exist \(check --db-root and the questions file\); this database cannot be used \(35 tasks\): --skip-missing-db scores the tasks of the others, --db NAME,… scores only the databases named/);
  });

  it('--skip-missing-db: the hints count the scored predictions only, and say what each kind starts with', async () => {
    const r = await score(ONLY_CONCERT, '--skip-missing-db');
    expect(r.code, r.stderr).toBe(ExitCode.Partial);
    expect(r.stderr).toContain(
      'p: 3 predictions start with neither a statement keyword nor a comment: 2 start with a Markdown code fence, e.g. task 1: "```sql SELECT count(*) FROM sing…"; 1 start with prose, e.g. task 3: "sql placeholder"; they run as given, as in the official evaluators (--repair restore-select prepends "SELECT " to all 3)',
    );
    expect(r.stderr).toContain("p: 1 predictions are empty; they return no rows, as Python's sqlite3 (the official evaluators') returns for empty text");
  });

  it('--db scores the databases named, exits 0 when they are all there, and counts their predictions only', async () => {
    const r = await score(ONLY_CONCERT, '--db', 'concert_singer', '--json');
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { tasks: number }).tasks).toBe(45);
    expect(r.stderr).toMatch(/p: 3 predictions start with neither/);
    const pets = await score(join(SPIDER, 'database'), '--db', 'pets_1');
    expect(pets.code, pets.stderr).toBe(0);
    expect(pets.stdout).toMatch(/--db: the 35 of 80 tasks on database pets_1\./);
    expect(pets.stderr).toContain(
      'p: 5 predictions start with neither a statement keyword nor a comment: 2 read as a SELECT list without its keyword (a "SELECT " left out?), e.g. task 53: "count(*) FROM pets"; 3 start with a Markdown code fence, e.g. task 50: "```sql"',
    );
    expect(pets.stderr).not.toMatch(/empty/);
    const both = await score(join(SPIDER, 'database'), '--db', 'pets_1,concert_singer', '--json');
    expect(both.code, both.stderr).toBe(0);
    expect((JSON.parse(both.stdout) as { tasks: number }).tasks).toBe(80);
  });

  it('--db with a name no question uses is an error that lists the databases there are', async () => {
    const r = await score(join(SPIDER, 'database'), '--db', 'concert_singer,debit_card_specializing');
    expect(r.code).toBe(ExitCode.UserError);
    expect(r.stderr).toMatch(/--db: no question of .*dev\.json uses "debit_card_specializing"; its databases are: concert_singer, pets_1/);
  });
});
