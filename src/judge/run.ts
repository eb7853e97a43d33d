import type { Benchmark, PredictionSet, Task } from '../benchmark/types.js';
import type { ExecRequest, ExecResult } from '../execution/types.js';
import { BudgetExceeded } from './budget.js';
import { judgeItem } from './cascade.js';
import type { CascadeDeps, JudgedItem, JudgeInput } from './cascade.js';
import { sha256 } from './hash.js';
import { createLimiter } from './limit.js';
import { previewResult } from './preview.js';
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
      previewRows: deps.previewRows ?? null,
      maxReasks: deps.maxReasks ?? null,
      ...extra,
    }),
  );
}

function itemKey(judgeKey: string, input: JudgeInput): string {
  const t = input.task;
  return sha256(
    JSON.stringify([
      judgeKey,
      t.dbId,
      t.question,
      t.evidence,
      t.goldSql,
      input.predSql ?? null,
      sha256(previewResult(input.gold, { maxRows: 1000 })),
      input.pred ? sha256(previewResult(input.pred, { maxRows: 1000 })) : null,
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
  const predIndex: { system: number; task: number; req: number }[] = [];
  o.systems.forEach((s, si) =>
    tasks.forEach((t, ti) => {
      const p = s.byTask.get(t.id);
      if (p) {
        predIndex.push({ system: si, task: ti, req: reqs.length });
        reqs.push({ dbId: t.dbId, sql: p.sql });
      }
    }),
  );
  const results = await o.executor.run(reqs, o.onExecProgress);
  const predResult = new Map<string, ExecResult>();
  for (const p of predIndex) predResult.set(`${p.system}\u0000${p.task}`, results[p.req]);

  const inputs: { system: string; input: JudgeInput }[] = [];
  o.systems.forEach((s, si) =>
    tasks.forEach((t: Task, ti) => {
      inputs.push({
        system: s.system,
        input: { task: t, predSql: s.byTask.get(t.id)?.sql, gold: results[ti], pred: predResult.get(`${si}\u0000${ti}`) },
      });
    }),
  );

  const out: (JudgeRecord | undefined)[] = new Array(inputs.length);
  let stopped: string | undefined;
  let fatal: { error: unknown } | undefined;
  let done = 0;
  const limit = createLimiter(Math.max(1, o.concurrency));
  await Promise.all(
    inputs.map(({ system, input }, i) =>
      // After a budget stop, items keep going through: those needing no new
      // call (no prediction, failed prediction, answers already cached) still finish.
      limit(async () => {
        if (fatal) return;
        const key = itemKey(o.judgeKey, input);
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
    return {
      system,
      judge,
      taskId: input.task.id,
      dbId: input.task.dbId,
      ex: input.pred?.status === 'ok' && input.gold.status === 'ok' && o.deps.equal(input.gold, input.pred),
      correct: null,
      route: 'not-judged',
      goldX: false,
      ambQ: false,
      ambSchema: false,
      unscored: `not judged: ${stopped ?? 'the run stopped'}`,
      calls: 0,
      cachedCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      latencyMs: 0,
    };
  });
  return stopped ? { items, stopped } : { items };
}
