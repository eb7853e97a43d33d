import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SPIDER } from './helpers/cli.js';
import { alive, endlessTask, failingSetprivSetup } from './helpers/execution-processes.js';

/**
 * bin/sqlboard.js starts a cold score's execution processes before the CLI loads (prespawn.ts);
 * the pool must adopt them rather than start more, and a run that fails first must not leave them.
 * These run the installed entry point (bin/ → dist/, built by `npm test`'s pretest).
 */
const BIN = join(ROOT, 'bin', 'sqlboard.js');

/** Live execution processes among the descendants of `root`. */
function execProcessesUnder(root: number): number[] {
  const parent = new Map<number, number>();
  const cmd = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      parent.set(Number(name), Number(ppid));
      cmd.set(Number(name), readFileSync(`/proc/${name}/cmdline`, 'utf8'));
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...cmd].filter(([pid, c]) => c.includes('exec-child') && under(pid)).map(([pid]) => pid);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.runIf(process.platform === 'linux')('execution processes started before the CLI loads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-prespawn-'));
  const { first, questions, pred } = endlessTask(dir);
  const args = (store: string, ...more: string[]): string[] => [
    BIN, 'score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--system', `x=${pred}`, '--store', join(dir, store), ...more,
  ];

  it('are adopted by the pool: --workers 1 runs one process, and the query still times out', async () => {
    const cli = spawn(process.execPath, args('adopt.db', '--workers', '1', '--timeout', '8', '--json'), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    cli.stdout.on('data', (d) => (stdout += d));
    const exited = new Promise<number | null>((r) => cli.on('exit', r));
    // Sampled for 6 s from the first sight of a process (the pool adopts, or forks, only once the CLI
    // has loaded), before the query's 8 s timeout, which starts with its dispatch, can replace it.
    const first = Date.now();
    while (execProcessesUnder(cli.pid!).length === 0 && Date.now() - first < 30_000) await sleep(20);
    let most = 0;
    for (const until = Date.now() + 6000; Date.now() < until; ) {
      most = Math.max(most, execProcessesUnder(cli.pid!).length);
      await sleep(50);
    }
    expect(await exited).toBe(0);
    expect(most).toBe(1);
    const json = JSON.parse(stdout) as { systems: { errors?: number; correct: number }[] };
    expect(json.systems[0]!.correct).toBe(0);
  }, 300_000);

  it('end with a run that fails before it executes anything', async () => {
    const cli = spawn(process.execPath, args('fails.db', '--max-rows', '-1'), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    cli.stderr.on('data', (d) => (stderr += d));
    let done = false;
    const exited = new Promise<number | null>((r) => cli.on('exit', (code) => ((done = true), r(code))));
    const started = new Set<number>();
    while (!done) {
      execProcessesUnder(cli.pid!).forEach((p) => started.add(p));
      await sleep(5);
    }
    expect(await exited).toBe(2);
    expect(stderr).toMatch(/--max-rows/);
    expect(started.size, 'processes were started for the run').toBeGreaterThan(0);
    // They end with the run: its IPC channel closed (or the kernel's parent-death signal).
    const left = (): number[] => [...started].filter(alive);
    for (let t = 0; t < 100 && left().length > 0; t++) await sleep(50);
    expect(left()).toEqual([]);
  }, 300_000);

  it('score through setpriv that cannot start Node: the processes started early fail, the rest start directly', async () => {
    const { path, gold } = failingSetprivSetup(dir, first);
    const cli = spawn(process.execPath, [BIN, 'score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--system', `g=${gold}`, '--store', join(dir, 'fake.db'), '--json'], {
      env: { ...process.env, PATH: path },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    cli.stdout.on('data', (d) => (stdout += d));
    cli.stderr.on('data', (d) => (stderr += d));
    expect(await new Promise((r) => cli.on('exit', r)), stderr).toBe(0);
    expect(stderr).toMatch(/unrecognized option --pdeathsig/);
    expect((JSON.parse(stdout) as { systems: { correct: number }[] }).systems[0]!.correct).toBe(1);
  }, 300_000);
});
