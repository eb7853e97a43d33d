import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SPIDER, TAB_SYSTEM } from './helpers/cli.js';
import { watchTreeMemory } from './helpers/tree-memory.js';

// Spider dev's first TASKS questions (concert_singer, pets_1, car_1): the normal systems' verdicts on
// them are what the hostile file must not change; the whole of dev added only time.
const TASKS = 300;
const SLICES = mkdtempSync(join(tmpdir(), 'sqlboard-hostile-slices-'));
const DEV = join(SLICES, 'dev.json');
writeFileSync(DEV, JSON.stringify((JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[]).slice(0, TASKS)));
const slice = (file: string, name: string): string => {
  const out = join(SLICES, name);
  writeFileSync(out, readFileSync(file, 'utf8').split('\n').slice(0, TASKS).join('\n') + '\n');
  return out;
};
const DB_ROOT = join(SPIDER, 'database');
const NORMAL = {
  chang: slice(TAB_SYSTEM.file, 'chang.sql'),
  resdsql: slice(join(SPIDER, 'predictions', 'resdsql', 'RESDSQL_3B.sql'), 'resdsql.sql'),
};
// Small caps, so that the test stays light on a shared 2-core machine.
const WORKERS = 2;
const MEMORY_MB = 192;
const RESULT_BYTES = 8_000_000;
/** What README.md states as a run's fixed overhead over its caps (the parent process, from source). */
const PARENT_OVERHEAD_MB = 400;
/** What one execution process can add between two of the parent's memory checks, as README.md states. */
const POLL_SLACK_MB = 64;

const rows = (n: number): string => `(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${n}) SELECT x FROM c)`;

/** Hostile predictions for tasks on concert_singer (tasks 0..44), each with the error it must carry. */
function hostile(dir: string): [string, RegExp][] {
  return [
    [`SELECT zeroblob(100000000) FROM ${rows(200)}`, /^(memory limit|result too large)/],
    ['SELECT zeroblob(60000000) FROM singer', /^(memory limit|result too large)/],
    [`SELECT randomblob(1000000) FROM ${rows(200)}`, /^(memory limit|result too large)/],
    [`SELECT x, printf('%.1000c', 'a') FROM ${rows(999999)}`, /^result too large/],
    // Streams rows until a limit stops it: which limit comes first depends on the machine's load.
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c', /^(memory limit|result too large|timed out after 10 s)/],
    ['WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c', /^timed out after 10 s/],
    ['DROP TABLE singer', /^refused/],
    ["INSERT INTO singer (Singer_ID, Name) VALUES (99, 'x') RETURNING Singer_ID", /^(refused|attempt to write a readonly database)/],
    ["UPDATE singer SET Name = 'x'", /^refused/],
    [`ATTACH '${join(dir, 'attached.db')}' AS other`, /^refused/],
    [`VACUUM INTO '${join(dir, 'copy.db')}'`, /^refused/],
    ['PRAGMA cache_size = 1', /^refused: PRAGMA cache_size/],
    ['PRAGMA locking_mode = EXCLUSIVE', /^refused: PRAGMA locking_mode/],
    ['PRAGMA busy_timeout = 1', /^refused: PRAGMA busy_timeout/],
    ["SELECT load_extension('/tmp/nothing')", /^refused: load_extension/],
    // Python's sqlite3 refuses a NUL before SQLite sees anything (the official evaluators' error).
    ['DROP TABLE singer\u0000', /^the query contains a null character/],
    ['DELETE FROM singer;;', /^refused/],
    [`SELECT zeroblob(100000000) FROM ${rows(200)};;`, /^(memory limit|result too large)/],
  ];
}

const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');
const allDbs = (): string[] => readdirSync(DB_ROOT).map((d) => join(DB_ROOT, d, `${d}.sqlite`)).filter((f) => existsSync(f));

interface Item {
  system: string;
  taskId: string;
  correct: boolean;
  predError?: string;
}

/** Runs `sqlboard score` from source under /usr/bin/time -v when present, sampling the process tree's memory. */
async function score(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; maxRssMb?: number; peakSumMb: number; peakSingleMb: number }> {
  const cli = [process.execPath, '--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'score', ...args];
  const timed = existsSync('/usr/bin/time');
  const child = spawn(timed ? '/usr/bin/time' : cli[0]!, timed ? ['-v', ...cli] : cli.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const watch = watchTreeMemory(child.pid!);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => (stdout += d));
  const code = await new Promise<number | null>((r) => child.on('close', r));
  const { peakSum, peakSingle } = watch.stop();
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  return { code, stdout, stderr, ...(m ? { maxRssMb: Number(m[1]) / 1024 } : {}), peakSumMb: peakSum / 2 ** 20, peakSingleMb: peakSingle / 2 ** 20 };
}

describe('a hostile system file scored alongside two normal systems on Spider dev', () => {
  it('costs only its own items: the run completes within its memory caps and the databases stay byte-identical', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sqlboard-hostile-'));
    const cases = hostile(dir);
    // The hostile file is chang's (SQL<TAB>db_id) with its first predictions replaced (all on concert_singer).
    const lines = readFileSync(NORMAL.chang, 'utf8').split('\n');
    cases.forEach(([sql], i) => (lines[i] = sql));
    const hostileFile = join(dir, 'hostile.sql');
    writeFileSync(hostileFile, lines.join('\n'));
    const before = new Map(allDbs().map((f) => [f, sha(f)]));
    const common = ['--questions', DEV, '--db-root', DB_ROOT, '--timeout', '10', '--workers', String(WORKERS),
      '--max-memory-mb', String(MEMORY_MB), '--max-result-bytes', String(RESULT_BYTES), '--json'];
    const normal = Object.entries(NORMAL).flatMap(([name, file]) => ['--system', `${name}=${file}`]);

    const withHostile = await score([...common, ...normal, '--system', `hostile=${hostileFile}`, '--store', join(dir, 'a.db'), '--items', join(dir, 'a.jsonl')]);
    expect(withHostile.code, withHostile.stderr).toBe(0);
    const without = await score([...common, ...normal, '--store', join(dir, 'b.db'), '--items', join(dir, 'b.jsonl')]);
    expect(without.code, without.stderr).toBe(0);

    const read = (f: string): Item[] => readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Item);
    const a = read(join(dir, 'a.jsonl'));
    const b = read(join(dir, 'b.jsonl'));
    // The normal systems' verdicts, item for item, as if the hostile file had not been there.
    expect(a.filter((it) => it.system !== 'hostile')).toEqual(b);
    expect(b).toHaveLength(2 * TASKS);
    // Each hostile item carries its own error; the hostile system's other items are scored normally.
    const h = a.filter((it) => it.system === 'hostile');
    expect(h).toHaveLength(TASKS);
    cases.forEach(([sql, error], i) => {
      expect(h[i]!.correct, sql).toBe(false);
      expect(h[i]!.predError ?? '(no error)', sql).toMatch(error);
    });
    // "Exec err" and timeouts are disjoint: together they are the items that failed to execute.
    const json = JSON.parse(withHostile.stdout) as { systems: { name: string; execErrors: number; timeouts: number }[] };
    const hs = json.systems.find((s) => s.name === 'hostile')!;
    expect(hs.timeouts).toBe(h.filter((it) => it.predError?.startsWith('timed out')).length);
    expect(hs.timeouts).toBeGreaterThanOrEqual(1);
    expect(hs.execErrors + hs.timeouts).toBe(h.filter((it) => it.predError !== undefined).length);
    const taSqlRest = b.filter((it) => it.system === 'chang').slice(cases.length);
    expect(h.slice(cases.length).map((it) => it.correct)).toEqual(taSqlRest.map((it) => it.correct));

    for (const [f, hash] of before) expect(sha(f), f).toBe(hash);
    expect(readdirSync(dir).filter((f) => /attached|copy/.test(f))).toEqual([]);

    // Memory: every execution process under its cap (plus what it can add between two checks),
    // the whole tree under the caps plus the parent's fixed overhead.
    const perProcess = MEMORY_MB + POLL_SLACK_MB;
    const total = WORKERS * perProcess + PARENT_OVERHEAD_MB;
    console.log(
      `hostile run: max RSS of one process ${withHostile.maxRssMb?.toFixed(0) ?? 'n/a'} MB (/usr/bin/time -v), ` +
        `peak of the process tree ${withHostile.peakSumMb.toFixed(0)} MB (/proc, every 20 ms), bound ${total} MB; ` +
        `without the hostile file: ${without.maxRssMb?.toFixed(0) ?? 'n/a'} MB / ${without.peakSumMb.toFixed(0)} MB`,
    );
    expect(withHostile.peakSingleMb).toBeLessThan(Math.max(perProcess, PARENT_OVERHEAD_MB));
    if (withHostile.maxRssMb !== undefined) expect(withHostile.maxRssMb).toBeLessThan(Math.max(perProcess, PARENT_OVERHEAD_MB));
    expect(withHostile.peakSumMb).toBeLessThan(total);
  }, 600_000);
});
