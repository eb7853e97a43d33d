import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, SPIDER } from './helpers/cli.js';
import { writeRoseRun } from './helpers/made-up-judging.js';
import { startFakeLlmServer, type FakeLlmServer } from './helpers/fake-llm-server.js';
import { ROUTE_CASES, routeScript } from './judge/spider-fixture.js';
import { ExitCode } from '../src/exit-codes.js';
import { processIo } from '../src/report/output.js';

/*
 * Every command refuses, before any work, an output that would write over one of its inputs (the
 * same file through a symlink or a hard link too), two outputs on one file or on stdout, and an
 * output it cannot write. Real inputs: Spider dev, its databases and published predictions, a made-up ROSE run.
 */

const dir = mkdtempSync(join(tmpdir(), 'sqlboard-outputs-'));
const DB = join(SPIDER, 'database');
const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');
const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as { db_id: string; query: string }[];

// Spider dev's first 8 tasks and two systems' predictions for them (the published files' first 8 lines).
const questions = join(dir, 'q.json');
const predsA = join(dir, 'a.sql');
const predsB = join(dir, 'b.sql');
const itemsA = join(dir, 'a.jsonl');
const itemsB = join(dir, 'b.jsonl');
let server: FakeLlmServer;

beforeAll(async () => {
  writeFileSync(questions, JSON.stringify(dev.slice(0, 8)));
  for (const [file, published] of [[predsA, 'c3/predicted_sql.txt'], [predsB, 'resdsql/RESDSQL_3B.sql']] as const) {
    const lines = readFileSync(join(SPIDER, 'predictions', published), 'utf8').split('\n').slice(0, 8);
    writeFileSync(file, lines.join('\n') + '\n');
  }
  const scored = await runCli(['score', '--questions', questions, '--db-root', DB, '--system', `a=${predsA}`, '--system', `b=${predsB}`, '--store', join(dir, 'first.db'), '--items', join(dir, 'ab.jsonl')]);
  expect(scored.code, scored.stderr).toBe(0);
  const lines = readFileSync(join(dir, 'ab.jsonl'), 'utf8').trim().split('\n');
  writeFileSync(itemsA, lines.filter((l) => l.includes('"system":"a"')).join('\n') + '\n');
  writeFileSync(itemsB, lines.filter((l) => l.includes('"system":"b"')).join('\n') + '\n');
  server = await startFakeLlmServer(routeScript);
}, 300_000);
afterAll(async () => server?.close());

/** Runs the CLI and expects a user error whose message contains `message`, with every input unchanged. */
async function refused(args: string[], message: string, inputs: string[] = [itemsA, itemsB, predsA, predsB, questions]): Promise<void> {
  const before = inputs.map(sha);
  const r = await runCli(args);
  expect(r.stderr).toContain(message);
  expect(r.code, r.stderr).toBe(ExitCode.UserError);
  expect(r.stderr).not.toContain('internal error');
  expect(r.stdout).toBe('');
  expect(inputs.map(sha)).toEqual(before);
}

describe('leaderboard', () => {
  it('`--md a.jsonl b.jsonl` and `--csv a.jsonl b.jsonl` (the option takes the verdict file as its FILE) are refused', async () => {
    await refused(['leaderboard', '--md', itemsA, itemsB], `--md ${itemsA}: a .jsonl file is data, not this report`);
    await refused(['leaderboard', '--csv', itemsA, itemsB], `--csv ${itemsA}: a .jsonl file is data, not this report`);
  });

  it('an output that is an input through a symlink or a hard link is refused', async () => {
    const soft = join(dir, 'soft.md');
    symlinkSync(itemsB, soft);
    const hard = join(dir, 'hard.html');
    linkSync(itemsA, hard);
    await refused(['leaderboard', itemsA, itemsB, '--md', soft], `--md ${soft} is an input of this command (verdict file ${itemsB})`);
    await refused(['leaderboard', itemsA, itemsB, '--html', hard], `--html ${hard} is an input of this command (verdict file ${itemsA})`);
  });

  it('two formats on stdout, two outputs on one file, --wide without a table: refused', async () => {
    await refused(['leaderboard', itemsA, itemsB, '--json', '--md'], '--json and --md would all write to stdout');
    const same = join(dir, 'same.txt');
    await refused(['leaderboard', itemsA, itemsB, '--md', same, '--html', join(dir, '..', 'sqlboard-outputs-x', '..', dir.split('/').pop()!, 'same.txt')], 'are the same file');
    expect(existsSync(same)).toBe(false);
    await refused(['leaderboard', itemsA, itemsB, '--json', '--wide'], "--wide sets the terminal table's width, and --json prints instead");
  });

  it('an output that cannot be written fails at once, naming the option (a /proc path, a file as a directory)', async () => {
    await refused(['leaderboard', itemsA, itemsB, '--md', '/proc/self/sqlboard/x.md'], 'cannot write --md /proc/self/sqlboard/x.md');
    await refused(['leaderboard', itemsA, itemsB, '--html', join(itemsA, 'x.html')], `cannot write --html ${join(itemsA, 'x.html')} (ENOTDIR`);
    await refused(['leaderboard', itemsA, itemsB, '--html', dir], `--html ${dir} is a directory`);
  });

  it('a good output in a new directory is written', async () => {
    const md = join(dir, 'new', 'deep', 'board.md');
    const r = await runCli(['leaderboard', itemsA, itemsB, '--md', md, '--iterations', '100']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(md, 'utf8')).toContain('| b ');
  });
});

describe('score: refused before any execution (the run store is never opened)', () => {
  const store = join(dir, 'score.db');
  const base = ['score', '--questions', questions, '--db-root', DB, '--system', `a=${predsA}`, '--store', store];
  it('--items over a predictions file, --md over the store, --html over a database inside --db-root', async () => {
    await refused([...base, '--items', predsA], `--items ${predsA} is an input of this command (--system ${predsA})`);
    const link = join(dir, 'questions-link.csv');
    symlinkSync(questions, link);
    await refused([...base, '--csv', link], `--csv ${link} is an input of this command (--questions ${questions})`);
    await refused([...base, '--md', join(dir, 'score.md'), '--items', join(dir, 'score.md')], 'are the same file');
    expect(existsSync(store)).toBe(false);
    // The store as a report file (it is read and written).
    const kept = join(dir, 'first.db');
    const keptLink = join(dir, 'store-link.md');
    symlinkSync(kept, keptLink);
    await refused(['score', ...base.slice(1, -1), kept, '--md', keptLink], `--store ${kept} and --md ${keptLink} are the same file`, [kept]);
    const fresh = join(dir, 'fresh-store');
    await refused([...base.slice(0, -1), fresh, '--md', fresh], `--store ${fresh} and --md ${fresh} are the same file`);
    expect(existsSync(fresh)).toBe(false);
    // A database inside --db-root, reached through a copy of the root.
    const root = join(dir, 'db');
    cpSync(join(DB, 'concert_singer'), join(root, 'concert_singer'), { recursive: true });
    const sqlite = join(root, 'concert_singer', 'concert_singer.sqlite');
    const sqliteLink = join(dir, 'db-link.html');
    symlinkSync(sqlite, sqliteLink);
    await refused(['score', '--questions', questions, '--db-root', root, '--system', `a=${predsA}`, '--store', store, '--html', sqliteLink], `is a file inside an input directory (--db-root ${root})`, [sqlite]);
    expect(existsSync(store)).toBe(false);
  });
});

describe('judge: refused before any LLM call', () => {
  const jq = join(dir, 'judge-q.json');
  const jp = join(dir, 'judge-p.sql');
  const store = join(dir, 'judge.db');
  const args = (): string[] => [
    'judge', '--questions', jq, '--db-root', DB, '--system', `routes=${jp}`,
    '--provider', 'openai', '--model', 'gpt-4o', '--base-url', server.openaiBase, '--store', store,
  ];
  it('--json --md, --items over the predictions, --record over --items: 0 calls, no store', async () => {
    writeFileSync(jq, JSON.stringify(ROUTE_CASES.map((c) => dev[Number(c.taskId)])));
    writeFileSync(jp, ROUTE_CASES.map((c) => `${c.pred}\tconcert_singer`).join('\n') + '\n');
    const env = { OPENAI_API_KEY: 'sk-output-safety-0123456789' };
    for (const [extra, message] of [
      [['--json', '--md'], '--json and --md would all write to stdout'],
      [['--items', jp], `--items ${jp} is an input of this command (--system ${jp})`],
      [['--items', join(dir, 'j.jsonl'), '--record', join(dir, 'j.jsonl')], 'are the same file'],
    ] as const) {
      const r = await runCli([...args(), ...extra], { env });
      expect(r.stderr).toContain(message);
      expect(r.code).toBe(ExitCode.UserError);
    }
    expect(server.seen.length).toBe(0);
    expect(existsSync(store)).toBe(false);
  });
});

describe('audit, import rose, validate, stats, batch status', () => {
  it('audit: --out DIR whose flags.csv is the --labels file', async () => {
    const out = join(dir, 'audit-out');
    mkdirSync(out);
    const labels = join(out, 'flags.csv');
    writeFileSync(labels, 'query_id,label\n0,1\n1,0\n');
    const agents = [predsA, predsB, predsA].flatMap((f, i) => ['--agent', `s${i}=${f}`]);
    await refused(['audit', '--questions', questions, '--db-root', DB, ...agents, '--labels', labels, '--out', out, '--store', join(dir, 'audit.db')],
      `--out ${labels} is an input of this command (--labels ${labels})`, [labels]);
    expect(existsSync(join(dir, 'audit.db'))).toBe(false);
  });

  it('import rose: --out onto a file of the ROSE directory', async () => {
    const rose = writeRoseRun(join(dir, 'rose', 'o3-c3-eval'));
    const evalFile = join(rose, 'eval_results.json');
    await refused(['import', 'rose', rose, '--system', 'c3', '--out', evalFile], `--out ${evalFile} is a file inside an input directory (ROSE directory ${rose})`, [evalFile]);
  });

  it('validate: --html onto a --judge verdict file (through a symlink)', async () => {
    const set = join(dir, 'set.jsonl');
    writeFileSync(set, readFileSync(itemsA, 'utf8').split('\n').filter(Boolean).map((l) => {
      const r = JSON.parse(l) as { taskId: string; correct: boolean };
      return JSON.stringify({ id: r.taskId, label: r.correct });
    }).join('\n') + '\n');
    const link = join(dir, 'judge-link.html');
    symlinkSync(itemsB, link);
    await refused(['validate', '--set', set, '--judge', `b=${itemsB}`, '--html', link], `--html ${link} is an input of this command (--judge ${itemsB})`, [itemsB, set]);
  });

  it('stats agreement and interval: an output onto a label or items file', async () => {
    const a = join(dir, 'labels-a.csv');
    const b = join(dir, 'labels-b.csv');
    writeFileSync(a, 'task_id,label\n0,1\n1,0\n2,1\n');
    writeFileSync(b, 'task_id,label\n0,1\n1,1\n2,1\n');
    await refused(['stats', 'agreement', a, b, '--csv', b], `--csv ${b} is an input of this command (label file ${b})`, [a, b]);
    const link = join(dir, 'items-link.md');
    symlinkSync(itemsA, link);
    await refused(['stats', 'interval', '--items', itemsA, '--metric', 'soft-f1', '--md', link], `--md ${link} is an input of this command (--items ${itemsA})`);
  });

  it('batch status: --html onto the run store', async () => {
    const kept = join(dir, 'first.db');
    const link = join(dir, 'batch-link.html');
    symlinkSync(kept, link);
    await refused(['batch', 'status', '--store', kept, '--html', link], `--html ${link} is an input of this command (--store ${kept})`, [kept]);
  });
});

describe('writing an output', () => {
  it('a path that cannot be created fails at once with a user error (recursive mkdir loops forever under /proc)', () => {
    expect(() => processIo.writeFile('/proc/self/sqlboard-x/y/z.md', 'x', '--md')).toThrow(/^cannot write --md \/proc\/self\/sqlboard-x\/y\/z\.md \(E/);
  });
});
