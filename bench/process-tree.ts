/**
 * Runs one command as a whole process and measures what a user would see: wall time, and the
 * peak memory of its whole process tree (the command and every process it starts), sampled from
 * /proc every few milliseconds. Both sqlboard and the Python pool run several processes, so the
 * peak of the tree's summed RSS is the fair figure; PSS is kept too (shared pages split between
 * the processes that share them), since forked Python workers share much of their parent.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Measured {
  ms: number;
  /** Peak of the sum of resident memory over the process tree, bytes (0 where /proc is absent). */
  peakRss: number;
  /** Peak of the sum of proportional set sizes over the tree, bytes (0 where unavailable). */
  peakPss: number;
  stdout: string;
  stderr: string;
  code: number | null;
}

const SAMPLE_MS = 15;
const PAGE = 4096;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The process and its descendants, as /proc lists them now. */
function tree(pid: number): number[] {
  const out: number[] = [];
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop()!;
    out.push(p);
    // The main thread starts the children of both programs measured here.
    for (const c of (read(`/proc/${p}/task/${p}/children`) ?? '').split(' ')) if (c.trim()) stack.push(Number(c));
  }
  return out;
}

function sample(pids: number[]): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const p of pids) {
    const statm = read(`/proc/${p}/statm`);
    if (statm) rss += Number(statm.split(' ')[1]) * PAGE;
    const m = /^Pss:\s+(\d+) kB/m.exec(read(`/proc/${p}/smaps_rollup`) ?? '');
    if (m) pss += Number(m[1]) * 1024;
  }
  return { rss, pss };
}

export function measure(command: string, args: string[], opts: { cwd?: string } = {}): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(command, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let peakRss = 0;
    let peakPss = 0;
    const poll = (): void => {
      if (child.pid === undefined) return;
      const s = sample(tree(child.pid));
      peakRss = Math.max(peakRss, s.rss);
      peakPss = Math.max(peakPss, s.pss);
    };
    const timer = setInterval(poll, SAMPLE_MS);
    child.on('error', (e) => {
      clearInterval(timer);
      reject(e);
    });
    child.on('exit', () => {
      const ms = performance.now() - t0;
      clearInterval(timer);
      child.on('close', (code) => resolve({ ms, peakRss, peakPss, stdout, stderr, code }));
    });
  });
}
