import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { ExRun } from './ex-run.js';
import { meanScore } from './metric-means.js';
import type { TimingReply, TimingRequest } from './timing-protocol.js';
import type { VesTiming } from './ves.js';
import { trackTimingProcess } from './timing-processes.js';
import { assertDqs } from './sqlite-check.js';
import type { SqliteCompat } from './sqlite-compat.js';

const isSource = import.meta.url.endsWith('.ts');
const CHILD = fileURLToPath(new URL(`./timing-child.${isSource ? 'ts' : 'js'}`, import.meta.url));

export interface VesOptions {
  /** Timed repetitions of each query (official default 100). */
  reps: number;
  /** Per-query limit in seconds; a pair gets reps × 2 × this, as the official reps × meta_time_out. */
  timeoutSec: number;
  maxRows: number;
  dbPath: (dbId: string) => string;
  /** --sqlite-compat, as the engine's (ExecutionEngine.compat). */
  compat?: SqliteCompat;
}

/** One idle child process that times pairs one after another; killed and replaced on a timeout. */
class Timer {
  private child: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private nextId = 0;

  private start(): void {
    assertDqs();
    const child = fork(CHILD, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv: isSource ? ['--import', 'tsx'] : [] });
    this.child = child;
    trackTimingProcess(child);
    this.ready = new Promise((resolve) => child.once('message', () => resolve()));
  }

  async time(req: Omit<TimingRequest, 'id'>, limitMs: number): Promise<VesTiming | { error: string }> {
    if (!this.child) this.start();
    await this.ready;
    const child = this.child!;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        this.child = undefined;
        resolve({ error: `timed out after ${Math.round(limitMs / 1000)} s` });
      }, limitMs);
      const onMessage = (m: TimingReply): void => {
        if (!('id' in m) || m.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve('timing' in m ? m.timing : { error: m.error });
      };
      child.on('message', onMessage);
      child.send({ ...req, id });
    });
  }

  close(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }
}

function cv(xs: readonly number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
  return mean > 0 ? sd / mean : NaN;
}

function median(xs: number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Adds VES and R-VES to a scored run: every EX-correct item is timed (prediction and gold as
 * written, `reps` times each, one query at a time in an otherwise idle process, after all other
 * execution is done); other items score 0. Items get `ves`, `rVes` (and `vesRatio`); systems the
 * means and the spread of the measurement.
 */
export async function addVes(
  run: ExRun,
  bench: Benchmark,
  systems: PredictionSet[],
  which: { ves: boolean; rVes: boolean },
  opts: VesOptions,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const tasks = new Map(bench.tasks.map((t) => [t.id, t]));
  const sets = new Map(systems.map((s) => [s.system, s]));
  const todo = run.items.filter((it) => it.correct === true && sets.get(it.system)?.byTask.has(it.taskId));
  const timer = new Timer();
  const spreads = new Map<string, { timed: number; failed: number; cvs: number[]; dropped: number; ratios: number }>();
  for (const s of run.systems) spreads.set(s.name, { timed: 0, failed: 0, cvs: [], dropped: 0, ratios: 0 });
  let done = 0;
  onProgress?.(0, todo.length);
  try {
    for (const it of todo) {
      const task = tasks.get(it.taskId)!;
      const pred = sets.get(it.system)!.byTask.get(it.taskId)!;
      const r = await timer.time(
        { dbPath: opts.dbPath(task.dbId), predSql: pred.sql, goldSql: task.goldSql, reps: opts.reps, maxRows: opts.maxRows, ...(opts.compat ? { compat: opts.compat } : {}) },
        opts.timeoutSec * 1000 * opts.reps * 2,
      );
      const sp = spreads.get(it.system)!;
      sp.timed++;
      if ('error' in r) {
        sp.failed++;
        it.vesError = r.error;
      } else {
        if (which.ves) it.ves = r.ves;
        if (which.rVes) it.rVes = r.rVes;
        it.vesRatio = r.ratio;
        sp.cvs.push(cv(r.ratios));
        sp.dropped += r.reps - r.kept;
        sp.ratios += r.reps;
      }
      onProgress?.(++done, todo.length);
    }
  } finally {
    timer.close();
  }
  for (const it of run.items) {
    if (which.ves) it.ves ??= 0;
    if (which.rVes) it.rVes ??= 0;
  }
  for (const s of run.systems) {
    const mine = run.items.filter((it) => it.system === s.name);
    if (which.ves) s.metrics.ves = meanScore(mine, 'ves', run.difficultyLevels);
    if (which.rVes) s.metrics['r-ves'] = meanScore(mine, 'r-ves', run.difficultyLevels);
    const sp = spreads.get(s.name)!;
    s.vesSpread = { timed: sp.timed, reps: opts.reps, failed: sp.failed, medianCv: median(sp.cvs), droppedShare: sp.ratios > 0 ? sp.dropped / sp.ratios : 0 };
  }
}
