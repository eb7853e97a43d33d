import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KERNEL_WATCHED, NO_SETPRIV, setprivPath } from '../src/execution/parent-death.js';
import { ROOT, runCli, SPIDER } from './helpers/cli.js';
import { alive, endlessTask, failingSetprivSetup } from './helpers/execution-processes.js';

/** Live (not zombie) processes whose parent is `ppid`, with their command lines. */
function childrenOf(ppid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so fields are read after its ')'.
      const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(parent) !== ppid || state === 'Z') continue;
      out.push({ pid: Number(name), cmd: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU time (user + system) a process has used, in seconds. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the comm field: state is field 3, utime 14 and stime 15 (1-based), in clock ticks (100/s).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) return false;
    await sleep(50);
  }
  return true;
}

/**
 * A run killed with SIGKILL (no clean-up at all) while its execution process is inside an endless
 * SQLite step: the orphan must die too, by the kernel's parent-death signal (setpriv) or, where that
 * is unavailable, by the process's own watchdog thread.
 */
describe.runIf(process.platform === 'linux')('an execution process dies with its run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-orphan-'));
  const { first, questions, pred } = endlessTask(dir);

  it('runs its queries without setpriv when the setpriv found cannot start them', async () => {
    const { path, gold } = failingSetprivSetup(dir, first);
    const r = await runCli(['score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--system', `gold=${gold}`, '--json', '--store', join(dir, 'fallback.db')], {
      env: { PATH: path },
    });
    expect(r.code, r.stderr).toBe(0);
    // The fake setpriv was tried (its processes' stderr is the run's), then Node started directly.
    expect(r.stderr).toMatch(/unrecognized option --pdeathsig/);
    expect((JSON.parse(r.stdout) as { systems: { correct: number }[] }).systems[0]!.correct).toBe(1);
  }, 300_000);

  for (const [label, env] of [
    ['through the kernel (setpriv --pdeathsig)', {}],
    ['through its watchdog thread', { [NO_SETPRIV]: '1' }],
  ] as const) {
    it(`when the parent is SIGKILLed: ${label}`, async () => {
      const cli = spawn(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--system', `x=${pred}`, '--timeout', '600', '--workers', '1', '--store', join(dir, `${label.length}.db`)],
        { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore' },
      );
      const exited = new Promise((r) => cli.on('exit', r));
      try {
        let worker: { pid: number; cmd: string } | undefined;
        // tsx's own loader may sit between; the execution process is the one running exec-child.
        const found = await until(() => (worker = childrenOf(cli.pid!).find((c) => c.cmd.includes('exec-child'))) !== undefined, 240_000);
        expect(found, 'an execution process started').toBe(true);
        // Until it runs the endless query: its CPU time keeps rising (booting alone takes well under 2 s of it).
        expect(await until(() => cpuSeconds(worker!.pid) > 2, 240_000), 'the execution process ran the query').toBe(true);
        // Started the way this case says (setpriv marks the process's environment). Read only now: the
        // process found may still have been setpriv, and an environment read while it execs Node can
        // come back empty (this failed once in a full run at load ~6).
        const kernel = readFileSync(`/proc/${worker!.pid}/environ`, 'utf8').split('\0').includes(`${KERNEL_WATCHED}=1`);
        expect(kernel).toBe(label.startsWith('through the kernel') && setprivPath() !== undefined);
        cli.kill('SIGKILL');
        await exited;
        // The watchdog looks every 0.5 s; the kernel's signal is immediate.
        expect(await until(() => !alive(worker!.pid), 60_000), `execution process ${worker!.pid} outlived its run`).toBe(true);
      } finally {
        cli.kill('SIGKILL');
      }
    }, 300_000);
  }
});
