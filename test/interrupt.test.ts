import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cliEntry, ROOT, runCli, SPIDER } from './helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from './helpers/fake-llm-server.js';
import { ROUTE_CASES, routeScript } from './judge/spider-fixture.js';
import { ExitCode } from '../src/exit-codes.js';

/*
 * SIGINT / SIGTERM during a long run: the real CLI on Spider dev is signalled once results are in
 * its run store. It must exit 130 / 143, say how far it got, leave no execution process behind,
 * leave the store consistent, and a re-run must resume every finished item.
 */

const dir = mkdtempSync(join(tmpdir(), 'sqlboard-interrupt-'));
const DB = join(SPIDER, 'database');
const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
const questions = join(dir, 'q.json');
/** Two published systems' predictions for the first TASKS tasks. */
const SYSTEMS: Record<string, string> = { c3: 'c3/predicted_sql.txt', resdsql: 'resdsql/RESDSQL_3B.sql' };
const TASKS = 300;
const systemArgs = Object.keys(SYSTEMS).flatMap((name) => ['--system', `${name}=${join(dir, `${name}.sql`)}`]);

/**
 * A few predictions that count for a second or so each: the run is still executing when the test's
 * signal comes, however fast the rest (a few hundred Spider queries) goes.
 */
const slow = (i: number): string => `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${4_000_000 + i}) SELECT count(*) FROM c`;
const SLOW_LINES = 6;
const KEPT_BEFORE_SIGNAL = TASKS + 50;

beforeAll(() => {
  writeFileSync(questions, JSON.stringify(dev.slice(0, TASKS)));
  for (const [name, file] of Object.entries(SYSTEMS)) {
    const lines = readFileSync(join(SPIDER, 'predictions', file), 'utf8').split('\n').slice(0, TASKS);
    if (name === 'resdsql') lines.splice(TASKS - SLOW_LINES, SLOW_LINES, ...Array.from({ length: SLOW_LINES }, (_, i) => slow(i)));
    writeFileSync(join(dir, `${name}.sql`), lines.join('\n') + '\n');
  }
});

/** Rows in one of the run store's tables (0 while it does not exist yet); read-only, beside the running writer (WAL). */
function rows(store: string, table: string): number {
  if (!existsSync(store)) return 0;
  try {
    const db = new Database(store, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0; // the table is not created yet
  }
}

/** The child processes of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const tasks = join('/proc', String(pid), 'task');
  if (!existsSync(tasks)) return [];
  return readFileSync(join(tasks, String(pid), 'children'), 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** A process that no longer runs: gone, or a zombie waiting for init to reap it. */
const dead = (pid: number): boolean => !existsSync(`/proc/${pid}/stat`) || readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');

interface Signalled {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The CLI's child processes just before the signal. */
  children: number[];
}

/** Starts the CLI (through `wrap`, e.g. `script` for a terminal), waits until `ready()`, sends `signal` to the CLI process. */
async function signalWhen(args: string[], ready: () => boolean, signal: NodeJS.Signals, opts: { env?: NodeJS.ProcessEnv; terminal?: boolean; group?: boolean } = {}): Promise<Signalled> {
  const cli = [process.execPath, ...cliEntry(), ...args];
  // `script` gives the CLI a pseudo-terminal (its stderr is a TTY, so the progress bar is drawn); `exec` makes the CLI script's own child.
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const child = opts.terminal
    ? spawn('script', ['-qfec', `exec ${cli.map(quote).join(' ')}`, '/dev/null'], { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(cli[0]!, cli.slice(1), { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: opts.group === true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const t0 = Date.now();
  while (!ready() && Date.now() - t0 < 240_000) await new Promise((r) => setTimeout(r, 50));
  expect(ready(), `not ready in time: ${stderr}`).toBe(true);
  const target = opts.terminal ? childrenOf(child.pid!)[0]! : child.pid!;
  const children = childrenOf(target);
  // group: as Ctrl-C in a terminal, the signal reaches the CLI and its execution processes at once.
  process.kill(opts.group ? -target : target, signal);
  const code = await closed;
  return { code, stdout, stderr, children };
}

describe('score: SIGINT to the process group (Ctrl-C) after some executions are stored', () => {
  const store = join(dir, 'score.db');
  const args = ['score', '--questions', questions, '--db-root', DB, ...systemArgs, '--store', store, '--workers', '2'];
  let stored = 0;

  it('exits 130, names how many executions are kept, kills the execution processes, keeps the store consistent', async () => {
    // More than the golds (at most TASKS), which start executing while the files are still read: by
    // then the run is in its executing stage, whose progress the message gives.
    const r = await signalWhen(args, () => rows(store, 'executions') >= KEPT_BEFORE_SIGNAL, 'SIGINT', { group: true });
    expect(r.code, r.stderr).toBe(ExitCode.Interrupted);
    const m = /sqlboard: interrupted by SIGINT \(executing (\d+) of (\d+) done\): every finished item is kept in the run store (.*); run the same command again to resume where it stopped\./.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(m![3]).toBe(store);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stdout).toBe('');
    stored = Number(m![1]);
    expect(stored).toBeGreaterThanOrEqual(KEPT_BEFORE_SIGNAL);
    expect(stored).toBeLessThan(Number(m![2]));
    // What it says is stored is what the store holds, and the file is sound.
    expect(rows(store, 'executions')).toBe(stored);
    const db = new Database(store, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // No query was stored as failed because its process got the signal too.
    expect(db.prepare("SELECT count(*) AS n FROM executions WHERE error LIKE '%process died%'").get()).toEqual({ n: 0 });
    db.close();
    // The execution processes (the CLI's children; one for this little work, pool.ts GROW_AT_MS) were killed with it.
    expect(r.children.length).toBeGreaterThanOrEqual(1);
    for (const pid of r.children) expect(dead(pid), `process ${pid} still runs`).toBe(true);
  }, 300_000);

  it('the re-run takes every stored execution from the store and gives the verdicts of an uninterrupted run', async () => {
    const resumed = await runCli([...args, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const fresh = await runCli([...args.slice(0, -3), join(dir, 'fresh.db'), '--workers', '2', '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    const a = JSON.parse(resumed.stdout);
    const b = JSON.parse(fresh.stdout);
    expect(a.execution.reused).toBe(stored);
    expect(a.execution.executed).toBe(a.execution.distinct - stored);
    expect(b.execution.reused).toBe(0);
    expect(a.systems).toEqual(b.systems);
  }, 300_000);
});

// The one kill -9 test of score: no handler runs, yet the re-run loses no execution the store had committed.
describe('score: SIGKILL (no clean-up at all) after some executions are stored', () => {
  it('the re-run reuses every committed execution and gives the verdicts of an uninterrupted run', async () => {
    const store = join(dir, 'killed.db');
    const args = ['score', '--questions', questions, '--db-root', DB, ...systemArgs, '--workers', '2'];
    let before = 0;
    const r = await signalWhen([...args, '--store', store], () => (before = rows(store, 'executions')) >= KEPT_BEFORE_SIGNAL, 'SIGKILL', { group: true });
    expect(r.code).toBeNull(); // killed, so no exit code
    expect(before).toBeGreaterThanOrEqual(KEPT_BEFORE_SIGNAL);
    const db = new Database(store, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    const resumed = await runCli([...args, '--store', store, '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const a = JSON.parse(resumed.stdout);
    expect(a.execution.reused).toBeGreaterThanOrEqual(before);
    expect(a.execution.reused + a.execution.executed).toBe(a.execution.distinct);
    // An uninterrupted run (fresh.db: the SIGINT test's, whose executions are reused when it ran first).
    const fresh = await runCli([...args, '--store', join(dir, 'fresh.db'), '--json']);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(a.systems).toEqual(JSON.parse(fresh.stdout).systems);
  }, 300_000);
});

describe('in a terminal', () => {
  it('SIGINT clears the progress line and shows the cursor and line wrap again', async () => {
    const store = join(dir, 'tty.db');
    const r = await signalWhen(['score', '--questions', questions, '--db-root', DB, ...systemArgs, '--store', store, '--workers', '2'], () => rows(store, 'executions') >= 40, 'SIGINT', { terminal: true });
    expect(r.code, r.stdout).toBe(ExitCode.Interrupted);
    const out = r.stdout;
    // The bar hid the cursor and turned line wrap off; both come back after the last bar frame, the line is cleared, then the message.
    const lastFrame = out.lastIndexOf('executing [');
    expect(out.indexOf('\x1b[?25l')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('\x1b[?25h', lastFrame)).toBeGreaterThan(lastFrame);
    expect(out.indexOf('\x1b[?7h', lastFrame)).toBeGreaterThan(lastFrame);
    expect(out.lastIndexOf('\x1b[?25l')).toBeLessThan(out.lastIndexOf('\x1b[?25h'));
    expect(out.lastIndexOf('\x1b[?7l')).toBeLessThan(out.lastIndexOf('\x1b[?7h'));
    const message = out.indexOf('sqlboard: interrupted by SIGINT (executing ');
    expect(out.lastIndexOf('\x1b[2K')).toBeLessThan(message);
    expect(out.lastIndexOf('\x1b[2K')).toBeGreaterThan(lastFrame);
    expect(out.slice(message)).not.toContain('executing [');
  }, 300_000);
});

describe('judge: SIGTERM while judging', () => {
  let server: FakeLlmServer;
  const jq = join(dir, 'judge-q.json');
  const jp = join(dir, 'judge-p.sql');
  const store = join(dir, 'judge.db');
  const TOTAL_CALLS = ROUTE_CASES.reduce((n, c) => n + c.calls, 0);
  beforeAll(async () => {
    // Each answer takes 400 ms, so the run is still judging when the first verdicts are stored.
    server = await startFakeLlmServer((req) => ({ ...routeScript(req), delayMs: 400 }));
    writeFileSync(jq, JSON.stringify(ROUTE_CASES.map((c) => dev[Number(c.taskId)])));
    writeFileSync(jp, ROUTE_CASES.map((c) => `${c.pred}\tconcert_singer`).join('\n') + '\n');
  });
  afterAll(async () => server?.close());
  const args = (): string[] => [
    'judge', '--questions', jq, '--db-root', DB, '--system', `routes=${jp}`,
    '--provider', 'openai', '--model', 'gpt-4o', '--base-url', server.openaiBase, '--store', store, '-j', '1',
  ];
  const env = { OPENAI_API_KEY: 'sk-interrupt-0123456789abcdef' };

  it('exits 143 naming the judged items kept; the re-run asks only what was not answered', async () => {
    const r = await signalWhen(args(), () => rows(store, 'judge_verdicts') >= 2, 'SIGTERM', { env });
    expect(r.code, r.stderr).toBe(ExitCode.Terminated);
    const m = /interrupted by SIGTERM \(executing \d+ of \d+; judging (\d+) of 8 done\): every finished item is kept in the run store/.exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    const judged = Number(m![1]);
    expect(judged).toBeLessThan(8);
    const callsBefore = server.seen.length;
    expect(callsBefore).toBeLessThan(TOTAL_CALLS);

    const items = join(dir, 'judged.jsonl');
    const again = await runCli([...args(), '--items', items], { env });
    expect(again.code, again.stderr).toBe(ExitCode.Partial); // the fixture leaves task 10 unscored
    // Every answer stored before the signal is reused: at most the one call in flight (-j 1) is asked again.
    expect(server.seen.length).toBeLessThanOrEqual(TOTAL_CALLS + 1);
    const lines = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { route: string; correct: boolean | null });
    expect(lines.map((l) => [l.route, l.correct])).toEqual(ROUTE_CASES.map((c) => [c.route, c.correct]));
  }, 300_000);
});
