import type { Benchmark, PredictionSet } from '../benchmark/types.js';
import type { ExecRequest, ExecResult } from '../execution/types.js';
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

  const out: (JudgeRecord | undefined)[] = new Array(inputs.length);
  let stopped: string | undefined;
  let fatal: { error: unknown } | undefined;
  let done = 0;
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
  if (fatal) throw fatal.error;
  const judge = typeof o.judgeName === 'string' ? o.judgeName : o.judgeName();
  const items = inputs.map(({ system, input }, i): JudgeRecord => {
    const r = out[i];
    if (r) return { ...r, judge };
    return { system, judge, ...notJudgedItem(input, o.deps, `not judged: ${stopped ?? 'the run stopped'}`) };
  });
  return stopped ? { items, judge, stopped } : { items, judge };
}
