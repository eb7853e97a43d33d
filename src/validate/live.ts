import type { Benchmark, PredictionSet, Task } from '../benchmark/types.js';
import { itemKey, type ValidationItem, type ValidationSet } from '../benchmark/validation-set.js';
import { judgeItemRecord } from '../judge/records.js';
import { runJudge, type Executor } from '../judge/run.js';
import type { LiveJudge } from '../judge/setup.js';
import { verdictOf, type JudgeVerdict, type JudgeVerdicts } from './sources.js';

export interface LiveValidationOptions {
  judge: LiveJudge;
  executor: Executor;
  concurrency: number;
  /** Items on databases that are not there (e.g. Spider's aan_1) stay without a verdict: coverage < 100%. */
  hasDatabase: (dbId: string) => boolean;
  /** Judge name in the report; default the live judge's `<model>-<snapshot>`. */
  name?: string;
  onExecProgress?: (done: number, total: number) => void;
  onJudgeProgress?: (done: number, total: number) => void;
}

/**
 * Runs the live ROSE-style cascade over the sets' items (their own predicted SQL) and returns
 * its verdicts keyed like recorded judges', so `validate` treats both alike; a budget stop is
 * one of its notes. Task ids are item positions, because ids repeat across subsets and the run
 * store keys on the item's content anyway.
 */
export async function judgeValidationItems(sets: readonly ValidationSet[], o: LiveValidationOptions): Promise<JudgeVerdicts> {
  const all: ValidationItem[] = sets.flatMap((s) => s.items);
  const runnable = all.filter((it) => it.dbId !== '' && o.hasDatabase(it.dbId));
  const tasks: Task[] = runnable.map((it, i) => ({ id: String(i), dbId: it.dbId, question: it.question, evidence: it.evidence, goldSql: it.goldSql }));
  const bench: Benchmark = { format: 'bird', source: sets.map((s) => s.file).join(', '), tasks };
  const system: PredictionSet = {
    system: 'validation',
    file: bench.source,
    byTask: new Map(runnable.map((it, i) => [String(i), { taskId: String(i), sql: it.predictedSql }])),
  };
  const run = await runJudge({
    bench,
    systems: [system],
    executor: o.executor,
    deps: o.judge.deps,
    concurrency: o.concurrency,
    verdicts: o.judge.verdicts,
    judgeKey: o.judge.judgeKey,
    judgeName: o.judge.name,
    ...(o.judge.batch ? { batch: o.judge.batch } : {}),
    onExecProgress: o.onExecProgress,
    onJudgeProgress: o.onJudgeProgress,
  });
  const name = o.name ?? run.judge;
  const byKey = new Map<string, JudgeVerdict>();
  for (const r of run.items) {
    const it = runnable[Number(r.taskId)]!;
    byKey.set(itemKey(it.subset, it.taskId), verdictOf(judgeItemRecord(r)));
  }
  const notes: string[] = [];
  const skipped = all.length - runnable.length;
  if (skipped > 0) notes.push(`${name}: ${skipped} items have no database under --db-root (or no db_id) and were not judged`);
  if (run.stopped) notes.push(`${name}: the run stopped early: ${run.stopped}`);
  if (run.waiting) notes.push(`${name}: ${run.waiting} items wait for submitted provider batches (--batch-wait none): run the same command again to collect them`);
  return { name, sources: [`live:${o.judge.client.model}`], byKey, notes };
}
