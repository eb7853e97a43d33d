import { readDatabase } from '../benchmark/read-database.js';
import type { Benchmark, Task } from '../benchmark/types.js';
import { databaseFile, type ExecutionEngine } from '../execution/engine.js';
import type { ExecRequest } from '../execution/types.js';
import { createRng } from '../stats/rng.js';
import { MUTATION_KINDS, mutations, type MutationKind } from './mutate.js';
import { normalizeResult, sameResult } from './normalize.js';

/**
 * The injected-error benchmark's planting step: a random share of the tasks get a mutated
 * gold (mutate.ts) that runs and answers differently from the original under the audit's
 * normalized comparison. The mutated tasks are known errors, so the audit's recall, AUC and
 * precision at k can be measured without a human label.
 */
export interface Injection {
  taskId: string;
  kind: MutationKind;
  original: string;
  mutated: string;
}

export interface InjectOptions {
  /** Share of tasks to mutate, in (0, 1). */
  rate: number;
  seed: number;
  dbRoot: string;
  /** Mutations drawn per kind per task before giving up on that kind (default 3). */
  perKind?: number;
}

export interface InjectedBenchmark {
  bench: Benchmark;
  injections: Injection[];
  /** Mutations executed to find them. */
  tried: number;
}

/** The database's column names (every table), read-only. */
function columnNames(dbRoot: string, dbId: string): string[] {
  return readDatabase(databaseFile(dbRoot, dbId), (db) => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { name: string }[];
    const cols = new Set<string>();
    for (const t of tables) for (const c of db.prepare(`PRAGMA table_info("${t.name.replace(/"/g, '""')}")`).all() as { name: string }[]) cols.add(c.name);
    return [...cols];
  });
}

function shuffle<T>(xs: T[], rng: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
}

/**
 * Mutates round(rate × N) tasks, drawn in a seeded random order: each drawn task tries the
 * mutation kinds in its own random order, up to `perKind` random edit sites per kind, and takes
 * the first mutation that runs and answers differently; a task where none does is skipped
 * and the next one drawn. Same seed, same injections.
 */
export async function injectErrors(bench: Benchmark, engine: ExecutionEngine, opts: InjectOptions): Promise<InjectedBenchmark> {
  if (!(opts.rate > 0 && opts.rate < 1)) throw new RangeError(`rate must be in (0, 1) (got ${opts.rate})`);
  const rng = createRng(opts.seed);
  const perKind = opts.perKind ?? 3;
  const target = Math.round(opts.rate * bench.tasks.length);
  const order = shuffle(bench.tasks.map((_, i) => i), rng);
  const columns = new Map<string, string[]>();
  const colsOf = (dbId: string): string[] => {
    let c = columns.get(dbId);
    if (!c) columns.set(dbId, (c = columnNames(opts.dbRoot, dbId)));
    return c;
  };
  const injections: Injection[] = [];
  let tried = 0;
  let next = 0;
  while (injections.length < target && next < order.length) {
    // Batches a little larger than what is missing, so one engine call covers most of the work.
    const batch = order.slice(next, next + Math.ceil((target - injections.length) * 1.3) + 5);
    next += batch.length;
    const plans = batch.map((i) => {
      const t = bench.tasks[i]!;
      const kinds = shuffle([...MUTATION_KINDS], rng);
      return { i, t, candidates: kinds.flatMap((kind) => shuffle(mutations(t.goldSql, kind, kind === 'column' ? colsOf(t.dbId) : []), rng).slice(0, perKind).map((sql) => ({ kind, sql }))) };
    });
    const reqs: ExecRequest[] = [];
    for (const p of plans) {
      reqs.push({ dbId: p.t.dbId, sql: p.t.goldSql });
      for (const c of p.candidates) reqs.push({ dbId: p.t.dbId, sql: c.sql });
    }
    tried += reqs.length - plans.length;
    const results = await engine.run(reqs);
    let at = 0;
    for (const p of plans) {
      const gold = normalizeResult(results[at++]);
      let chosen: (typeof p.candidates)[number] | undefined;
      for (const c of p.candidates) {
        const r = normalizeResult(results[at++]);
        if (!chosen && gold.ok && r.ok && !sameResult(r, gold)) chosen = c;
      }
      if (chosen && injections.length < target) injections.push({ taskId: p.t.id, kind: chosen.kind, original: p.t.goldSql, mutated: chosen.sql });
    }
  }
  const byId = new Map(injections.map((x) => [x.taskId, x.mutated]));
  const tasks: Task[] = bench.tasks.map((t) => (byId.has(t.id) ? { ...t, goldSql: byId.get(t.id)! } : t));
  return { bench: { ...bench, tasks }, injections, tried };
}
