import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { ExecRequest, ExecResult } from '../execution/types.js';
import { CallDeferred } from '../llm/batch/collector.js';
import type { BatchCollector } from '../llm/batch/collector.js';
import type { WaveDriver } from '../llm/batch/waves.js';
import { BudgetExceeded } from '../llm/budget.js';
import { DEFAULT_MAX_REASKS, judgeItem, notJudgedItem } from './cascade.js';
import type { CascadeDeps, JudgedItem, JudgeInput } from './cascade.js';
import { sha256 } from '../llm/hash.js';
import { createLimiter } from '../llm/limit.js';
import { DEFAULT_PREVIEW_ROWS, previewResult } from './preview.js';
import type { VerdictStore } from './verdict-store.js';

/** What the judge needs from execution (the ExecutionEngine satisfies it). */
export interface Executor {
  run(reqs: ExecRequest[], onProgress?: (done: number, total: number) => void): Promise<ExecResult[]>;
}

export interface JudgeRunOptions {
  bench: Benchmark;
  systems: PredictionSet[];
  executor: Executor;
  deps: CascadeDeps;
  /** Items judged at once (-j). */
  concurrency: number;
  /** Finished verdicts; with it, a re-run replays them without rendering a prompt. */
  verdicts?: VerdictStore;
  /** Names the judge configuration in the verdict store (see judgeConfigKey). */
  judgeKey: string;
  /** A function when the name depends on the model version the API reports (called once, at the end). */
  judgeName: string | (() => string);
  onExecProgress?: (done: number, total: number) => void;
  onJudgeProgress?: (done: number, total: number) => void;
  /**
   * Batch mode: the client defers every call the cache lacks to `collector`; after each
   * pass `driver` answers them as a wave of provider batches, and the next pass goes on.
   */
  batch?: { collector: BatchCollector; driver: WaveDriver };
}

export interface JudgeRecord extends JudgedItem {
  system: string;
  judge: string;
}

export interface JudgeRunResult {
  items: JudgeRecord[];
  /** The judge's name, as every item carries it. */
  judge: string;
  /** Why the run stopped early (budget), if it did; the rest are `not-judged`. */
  stopped?: string;
  /** Batch mode with --batch-wait none: items still waiting for submitted batches. */
  waiting?: number;
}

/** Everything about the judge that changes a verdict; the API key is not part of it. */
export function judgeConfigKey(deps: CascadeDeps, extra: Record<string, unknown> = {}): string {
  const c = deps.client;
  return sha256(
    JSON.stringify({
      provider: c.provider.name,
      baseUrl: c.provider.baseUrl,
      model: c.model,
      sampling: c.sampling,
      structuredOutput: c.provider.structuredOutput,
      prompts: [deps.prompts.prover.hash, deps.prompts.refuter.hash, deps.prompts.refuterMatch.hash],
      // Defaults resolved as the cascade resolves them: the same behaviour gets the same key.
      previewRows: deps.previewRows ?? DEFAULT_PREVIEW_ROWS,
      maxReasks: deps.maxReasks ?? DEFAULT_MAX_REASKS,
      ...extra,
    }),
  );
}

function resultHash(r: ExecResult): string {
  return sha256(previewResult(r, { maxRows: 1000 }));
}

/** `goldHash`: resultHash of the gold result, computed once per task rather than once per system. */
function itemKey(judgeKey: string, input: JudgeInput, goldHash: string): string {
  const t = input.task;
  return sha256(
    JSON.stringify([
      judgeKey,
      t.dbId,
      t.question,
      t.evidence,
      t.goldSql,
      input.predSql ?? null,
      goldHash,
      input.pred ? resultHash(input.pred) : null,
    ]),
  );
}

/**
 * Executes every gold and predicted SQL once (the executor dedups), then
 * judges every (system, task) item, `concurrency` at a time. A budget stop
 * makes no new call (items that need none still finish) and marks the rest
 * `not-judged`: everything already judged is kept (and stored).
 */
export async function runJudge(o: JudgeRunOptions): Promise<JudgeRunResult> {
  const tasks = o.bench.tasks;
  const reqs: ExecRequest[] = tasks.map((t) => ({ dbId: t.dbId, sql: t.goldSql }));
  // One entry per (system, task); `req` is its prediction's request (none without a prediction).
  const planned = o.systems.flatMap((s) =>
    tasks.map((task, ti) => {
      const predSql = s.byTask.get(task.id)?.sql;
      const req = predSql === undefined ? undefined : reqs.push({ dbId: task.dbId, sql: predSql }) - 1;
      return { system: s.system, task, ti, predSql, req };
    }),
  );
  const results = await o.executor.run(reqs, o.onExecProgress);
  const goldHashes = tasks.map((_, ti) => resultHash(results[ti]));
  const inputs: { system: string; input: JudgeInput; goldHash: string }[] = planned.map((p) => ({
    system: p.system,
    input: { task: p.task, predSql: p.predSql, gold: results[p.ti], pred: p.req === undefined ? undefined : results[p.req] },
    goldHash: goldHashes[p.ti],
  }));

  let pass = await judgePass(o, inputs);
  // Batch mode: each pass defers the calls the cache lacks; one wave of batches answers
  // them, and the next pass finds them (a Refuter after its Prover, a re-ask after its answer).
  let waiting = 0;
  while (o.batch && !pass.stopped && !pass.fatal && o.batch.collector.size > 0) {
    const deferred = o.batch.collector.drain();
    try {
      const wave = await o.batch.driver.run(deferred);
      if (wave.waiting) {
        waiting = pass.deferred;
        break;
      }
    } catch (e) {
      if (!(e instanceof BudgetExceeded)) throw e;
      pass.stopped = e.message;
      break;
    }
    pass = await judgePass(o, inputs);
  }
  if (pass.fatal) throw pass.fatal.error;
  const { out, stopped } = pass;
  const judge = typeof o.judgeName === 'string' ? o.judgeName : o.judgeName();
  const why = stopped ?? (waiting > 0 ? 'waiting for submitted provider batches; run the same command again to collect them' : 'the run stopped');
  const items = inputs.map(({ system, input }, i): JudgeRecord => {
    const r = out[i];
    if (r) return { ...r, judge };
    return { system, judge, ...notJudgedItem(input, o.deps, `not judged: ${why}`) };
  });
  return { items, judge, ...(stopped ? { stopped } : {}), ...(waiting > 0 ? { waiting } : {}) };
}

interface PassResult {
  out: (JudgeRecord | undefined)[];
  stopped?: string;
  fatal?: { error: unknown };
  /** Items waiting for a deferred (batch) call. */
  deferred: number;
}

/** Judges every item once, `concurrency` at a time; in batch mode, items whose calls were deferred stay open. */
async function judgePass(o: JudgeRunOptions, inputs: { system: string; input: JudgeInput; goldHash: string }[]): Promise<PassResult> {
  const out: (JudgeRecord | undefined)[] = new Array(inputs.length);
  let stopped: string | undefined;
  let fatal: { error: unknown } | undefined;
  let done = 0;
  let deferred = 0;
  const limit = createLimiter(Math.max(1, o.concurrency));
  await Promise.all(
    inputs.map(({ system, input, goldHash }, i) =>
      // After a budget stop, items keep going through: those needing no new
      // call (no prediction, failed prediction, answers already cached) still finish.
      limit(async () => {
        if (fatal) return;
        const key = itemKey(o.judgeKey, input, goldHash);
        let item = o.verdicts?.get(key);
        if (!item) {
          try {
            item = await judgeItem(input, o.deps);
          } catch (e) {
            if (e instanceof CallDeferred) {
              deferred += 1;
              return;
            }
            if (e instanceof BudgetExceeded) {
              stopped ??= e.message;
              return;
            }
            // A bad key or model: start nothing more, let in-flight calls land, then report.
            fatal ??= { error: e };
            return;
          }
          o.verdicts?.put(key, o.judgeKey, item);
        }
        out[i] = { system, judge: '', ...item };
        done += 1;
        o.onJudgeProgress?.(done, inputs.length);
      }),
    ),
  );
  return { out, deferred, ...(stopped ? { stopped } : {}), ...(fatal ? { fatal } : {}) };
}
