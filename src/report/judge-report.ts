import type { CascadeDeps } from '../judge/cascade.js';
import type { Price } from '../llm/pricing.js';
import type { JudgeRunResult } from '../judge/run.js';
import type { SystemJudgeSummary } from '../judge/summary.js';
import type { Column, Report } from './model.js';

export interface JudgeContext {
  questions: string;
  tasks: number;
  deps: CascadeDeps;
  price: Price | undefined;
}

export function judgeJson(run: JudgeRunResult, systems: SystemJudgeSummary[], c: JudgeContext): object {
  const client = c.deps.client;
  return {
    judge: run.judge,
    provider: client.provider.name,
    model: client.model,
    baseUrl: client.provider.baseUrl,
    comparator: 'bird',
    questions: c.questions,
    tasks: c.tasks,
    prompts: { prover: c.deps.prompts.prover.hash, refuter: c.deps.prompts.refuter.hash, refuterMatch: c.deps.prompts.refuterMatch.hash },
    price: c.price ?? null,
    ...(run.stopped ? { stopped: run.stopped } : {}),
    systems,
    thisRun: { ...client.stats },
  };
}

export function judgeReport(run: JudgeRunResult, systems: SystemJudgeSummary[], c: JudgeContext): Report {
  const columns: Column[] = [
    { key: 'system', header: 'System' },
    { key: 'n', header: 'N', format: 'integer' },
    { key: 'ex', header: 'EX', format: 'percent' },
    { key: 'accuracy', header: 'Judge acc.', format: 'percent' },
    { key: 'scored', header: 'Scored', format: 'integer' },
    { key: 'goldX', header: 'GoldX', format: 'integer' },
    { key: 'ambQ', header: 'AmbQ', format: 'integer' },
    { key: 'unscored', header: 'Unscored', format: 'integer' },
    { key: 'callsPerItem', header: 'Calls/item', format: 'fixed', digits: 2, optional: true },
    { key: 'tokens', header: 'Tokens', format: 'integer', optional: true },
    { key: 'costUsd', header: 'Cost USD', format: 'fixed', digits: 4 },
    { key: 'latency', header: 'Latency s', format: 'fixed', digits: 2, optional: true },
  ];
  const rows = [...systems]
    .sort((a, b) => b.accuracy - a.accuracy)
    .map((s) => ({
      system: s.name,
      n: s.n,
      ex: s.ex,
      accuracy: s.accuracy,
      scored: s.scored,
      goldX: s.goldX,
      ambQ: s.ambQ,
      unscored: s.unscored + s.notJudged,
      callsPerItem: s.callsPerItem,
      tokens: s.inputTokens + s.outputTokens,
      costUsd: s.costUsd,
      latency: s.meanLatencyMs / 1000,
    }));
  const unscored = run.items.filter((r) => r.correct === null);
  const routeNames = [...new Set(run.items.map((r) => r.route))].sort();
  const routeColumns: Column[] = [{ key: 'system', header: 'System' }, ...routeNames.map((r): Column => ({ key: r, header: r, format: 'integer' }))];
  const routeRows = systems.map((s) => ({ system: s.name, ...Object.fromEntries(routeNames.map((r) => [r, s.routes[r] ?? 0])) }));
  const st = c.deps.client.stats;
  return {
    title: `Judge: ${run.judge} (Prover + Adversarial Refuter)`,
    meta: {
      questions: c.questions,
      tasks: c.tasks,
      provider: `${c.deps.client.provider.name} ${c.deps.client.provider.baseUrl}`,
      prompts: `prover ${c.deps.prompts.prover.hash}, refuter ${c.deps.prompts.refuter.hash}, refuter-match ${c.deps.prompts.refuterMatch.hash}`,
    },
    sections: [
      {
        title: 'Systems',
        table: { columns, rows },
        notes: [
          'Judge accuracy counts scored items only; unscored items (no usable judge answer, or not judged) are listed apart and never counted right or wrong.',
          'EX uses the bird comparator (set of rows), which also decides the cascade’s match route.',
          `This run: ${st.requests} API calls, ${st.cacheHits} answered without a new request (run store, or an identical call in flight), ${st.inputTokens + st.outputTokens} tokens, ${st.costUsd.toFixed(4)} USD${c.price ? '' : ' (no price known for this model: costs show 0; pass --price)'}.`,
          ...(run.stopped ? [`Stopped early: ${run.stopped}. Re-run to continue; nothing judged is lost.`] : []),
        ],
      },
      { title: 'Routes', table: { columns: routeColumns, rows: routeRows } },
      ...(unscored.length > 0
        ? [
            {
              title: 'Unscored items',
              table: {
                columns: [
                  { key: 'system', header: 'System' },
                  { key: 'taskId', header: 'Task' },
                  { key: 'route', header: 'Route' },
                  { key: 'reason', header: 'Why' },
                ] as Column[],
                rows: unscored.slice(0, 50).map((r) => ({ system: r.system, taskId: r.taskId, route: r.route, reason: r.unscored ?? '' })),
              },
              notes: unscored.length > 50 ? [`First 50 of ${unscored.length}; --items has them all.`] : [],
            },
          ]
        : []),
    ],
  };
}
