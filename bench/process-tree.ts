/**
 * Runs one command as a whole process and measures what a user would see: wall time, or (with
 * `sampleMemory`) the peak memory of its whole process tree (the command and every process it
 * starts), sampled from /proc every few milliseconds. Both sqlboard and the Python pool run several
 * processes, so the peak of the tree's summed RSS is the fair figure; PSS is kept too (shared pages
 * split between the processes that share them), since forked Python workers share much of their parent.
 *
 * Time and memory come from different runs: reading every process's smaps_rollup every 15 ms walks
 * its page tables, CPU taken from the measured program on a machine whose every core it keeps
 * busy (on 2 cores it made sqlboard's 15-system run some 15% slower and the pool's ~4%).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Measured {
  ms: number;
  /** Peak of the sum of resident memory over the process tree, bytes (0 where /proc is absent or not sampled). */
  peakRss: number;
  /** Peak of the sum of proportional set sizes over the tree, bytes (0 where unavailable or not sampled). */
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

export function measure(command: string, args: string[], opts: { cwd?: string; sampleMemory?: boolean } = {}): Promise<Measured> {
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
    const timer = opts.sampleMemory ? setInterval(poll, SAMPLE_MS) : undefined;
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
