import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { openRunStore } from '../../src/store/run-store.js';
import type { RunStore } from '../../src/store/run-store.js';
import { createLiveJudge } from '../../src/judge/setup.js';
import { runJudge } from '../../src/judge/run.js';
import type { JudgeRecord, JudgeRunResult } from '../../src/judge/run.js';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { createOpenAiBatchTransport } from '../../src/llm/batch/openai-batch.js';
import { createGeminiBatchTransport } from '../../src/llm/batch/gemini-batch.js';
import { createGeminiProvider } from '../../src/llm/providers/gemini.js';
import { BatchStore } from '../../src/llm/batch/batch-store.js';
import type { BatchModeOptions } from '../../src/llm/batch/setup.js';
import { sumWaves } from '../../src/llm/batch/waves.js';
import { startFakeLlmServer, stageOf } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer } from '../helpers/fake-llm-server.js';
import { startFakeBatchServer } from '../helpers/fake-batch-server.js';
import type { FakeBatchServer } from '../helpers/fake-batch-server.js';
import { DB_ROOT, ROUTE_CASES, routeBench, routeScript } from '../judge/spider-fixture.js';

const KEY = 'sk-batch-SECRET-key-123456789';
let online: FakeLlmServer;
let batch: FakeBatchServer;
let engine: ExecutionEngine;
beforeAll(async () => {
  online = await startFakeLlmServer(routeScript);
  batch = await startFakeBatchServer(routeScript);
  engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 2 });
});
afterAll(async () => {
  await engine.close();
  await online.close();
  await batch.close();
});

const freshStore = (): RunStore => openRunStore(join(mkdtempSync(join(tmpdir(), 'sqlboard-batch-')), 'run.db'));
const noSleep = async (): Promise<void> => {};

async function judge(store: RunStore, mode: 'online' | BatchModeOptions, extra: { maxCostUsd?: number; gemini?: boolean; maxRequests?: number } = {}) {
  const { bench, system } = routeBench();
  const { gemini, maxRequests, ...limits } = extra;
  const split = maxRequests ? { limits: { maxRequests, maxBytes: 1e9 } } : {};
  const model = gemini ? 'gemini-2.0-flash' : 'gpt-4o';
  const provider = gemini
    ? createGeminiProvider({ apiKey: KEY, baseUrl: mode === 'online' ? online.url : batch.url })
    : createOpenAiProvider({ apiKey: KEY, baseUrl: mode === 'online' ? online.openaiBase : batch.openaiBase });
  const transport = gemini
    ? createGeminiBatchTransport({ apiKey: KEY, baseUrl: batch.url, model })
    : createOpenAiBatchTransport({ apiKey: KEY, baseUrl: batch.openaiBase, ...split });
  const j = createLiveJudge({
    provider,
    model,
    dbRoot: DB_ROOT,
    store,
    concurrency: 3,
    ...limits,
    ...(mode === 'online' ? {} : { batch: { sleep: noSleep, pollMs: 1, ...mode }, batchTransport: transport }),
  });
  const run = await runJudge({
    bench,
    systems: [system],
    executor: engine,
    deps: j.deps,
    concurrency: 3,
    verdicts: j.verdicts,
    judgeKey: j.judgeKey,
    judgeName: j.name,
    ...(j.batch ? { batch: j.batch } : {}),
  });
  return { run, j };
}

/** An item without what only the transport changes (usage, latency, cost). */
function verdictOf(r: JudgeRecord): Record<string, unknown> {
  const { calls: _c, cachedCalls: _cc, inputTokens: _i, outputTokens: _o, costUsd: _u, latencyMs: _l, ...rest } = r;
  return rest;
}
const verdicts = (r: JudgeRunResult): Record<string, unknown>[] => r.items.map(verdictOf);

describe('judge --batch through the OpenAI Batch API (real SDK, local batch server)', () => {
  let onlineRun: JudgeRunResult;

  it('gives the verdicts an online run gives with the same answers, in one batch per cascade stage', async () => {
    online.seen.length = 0;
    const s1 = freshStore();
    onlineRun = (await judge(s1, 'online')).run;
    s1.close();

    batch.batches.length = 0;
    batch.answered.length = 0;
    const s2 = freshStore();
    const { run, j } = await judge(s2, {});
    expect(run.stopped).toBeUndefined();
    expect(verdicts(run)).toEqual(verdicts(onlineRun));
    for (const c of ROUTE_CASES) {
      const it = run.items.find((r) => r.taskId === c.taskId)!;
      expect({ task: c.taskId, route: it.route, correct: it.correct, calls: it.calls }).toEqual({ task: c.taskId, route: c.route, correct: c.correct, calls: c.calls });
    }
    // Wave 1: every Prover and match-mode Refuter; wave 2: the Refuters after a Prover "yes" and the re-asks.
    expect(batch.batches).toHaveLength(2);
    const stages = batch.batches.map((b) => b.lines.map((l) => stageOf(l.req)).sort());
    expect(stages[0]).toEqual(['prover', 'prover', 'prover', 'prover', 'prover', 'refuter-match', 'refuter-match']);
    expect(stages[1]).toEqual(['prover', 'prover', 'refuter', 'refuter']);
    // Structured output is asked for in the batch exactly as online (the echo check depends on it).
    expect(batch.batches.flatMap((b) => b.lines).every((l) => JSON.parse(l.req.body).response_format?.type === 'json_schema')).toBe(true);
    expect(online.seen.every((r) => JSON.parse(r.body).response_format?.type === 'json_schema')).toBe(true);
    // The same requests, message for message, as the online run sent.
    const key = (m: { messages: unknown }) => JSON.stringify(m.messages);
    expect(batch.answered.map(key).sort()).toEqual(online.seen.map(key).sort());
    // Requests and tokens as online; cost at the batch price (half).
    expect(j.client.stats.requests).toBe(online.seen.length);
    const onlineCost = onlineRun.items.reduce((s, r) => s + r.costUsd, 0);
    expect(run.items.reduce((s, r) => s + r.costUsd, 0)).toBeCloseTo(onlineCost / 2, 12);
    const w = sumWaves(j.batch!.driver.reports);
    expect(w).toMatchObject({ waves: 2, submitted: 11, answered: 11, adopted: 0, resubmitted: 0, failed: 0 });
    // The key never travels in the batch files, only in the Authorization header.
    for (const b of batch.batches) expect(JSON.stringify(b.lines.map((l) => [l.customId, l.req.body]))).not.toContain('SECRET');
    expect(new BatchStore(s2).list().every((b) => b.collected && b.state === 'completed')).toBe(true);
    s2.close();
  });

  it('--batch-wait none submits and returns; a second run polls the same batch instead of resubmitting', async () => {
    batch.batches.length = 0;
    const store = freshStore();
    const first = await judge(store, { wait: 'none' });
    expect(first.run.waiting).toBe(7);
    expect(first.run.items.filter((r) => r.route === 'not-judged')).toHaveLength(7);
    expect(batch.batches).toHaveLength(1);
    expect(new BatchStore(store).list()).toMatchObject([{ state: 'validating', collected: false, total: 7 }]);

    const second = await judge(store, {});
    expect(batch.batches).toHaveLength(2); // wave 1 adopted, only wave 2 is new
    expect(sumWaves(second.j.batch!.driver.reports)).toMatchObject({ adopted: 7, submitted: 4 });
    expect(verdicts(second.run)).toEqual(verdicts(onlineRun));
    store.close();
  });

  it('an expired batch, error lines and a result file missing lines: each request is sent once more, then answered', async () => {
    batch.batches.length = 0;
    batch.setPlan((n) =>
      n === 1
        ? { end: 'expired', finished: 3 }
        : n === 3 // batch 2 resubmits wave 1's unfinished requests; batch 3 is wave 2
          ? { errorLine: (_id, req) => stageOf(req) === 'refuter', dropLine: (_id, req) => stageOf(req) === 'prover' && req.messages.length > 2 }
          : {},
    );
    const store = freshStore();
    const { run, j } = await judge(store, {});
    batch.setPlan(() => ({}));
    expect(verdicts(run)).toEqual(verdicts(onlineRun));
    const w = sumWaves(j.batch!.driver.reports);
    expect(w.resubmitted).toBe(4 + 4); // 4 unfinished of wave 1; 2 error + 2 missing lines of wave 2
    expect(w.failed).toBe(0);
    expect(batch.batches.map((b) => b.lines.length)).toEqual([7, 4, 4, 4]);
    store.close();
  });

  it('a request that fails in its resubmission too leaves its item unscored, with why; --batch-fallback online asks it online instead', async () => {
    batch.batches.length = 0;
    batch.setPlan(() => ({ errorLine: (_id, req) => stageOf(req) === 'refuter' }));
    const s1 = freshStore();
    const { run } = await judge(s1, {});
    s1.close();
    for (const t of ['4', '6']) {
      const it = run.items.find((r) => r.taskId === t)!;
      expect(it.correct).toBeNull();
      expect(it.unscored).toMatch(/batch: HTTP 500: scripted line error \(after one resubmission\)/);
    }
    batch.online.length = 0;
    const s2 = freshStore();
    const fb = await judge(s2, { fallback: 'online' });
    batch.setPlan(() => ({}));
    s2.close();
    expect(batch.online.map(stageOf)).toEqual(['refuter', 'refuter']);
    expect(verdicts(fb.run)).toEqual(verdicts(onlineRun));
  });

  it("a wave larger than the provider's limit is split into several batches", async () => {
    batch.batches.length = 0;
    const store = freshStore();
    const { run } = await judge(store, {}, { maxRequests: 3 });
    expect(verdicts(run)).toEqual(verdicts(onlineRun));
    expect(batch.batches.map((b) => b.lines.length)).toEqual([3, 3, 1, 3, 1]);
    store.close();
  });

  it('a batch cancelled part-way: its finished answers are kept, the rest sent once more', async () => {
    batch.batches.length = 0;
    batch.setPlan((n) => (n === 1 ? { end: 'cancelled', finished: 5 } : {}));
    const store = freshStore();
    const { run, j } = await judge(store, {});
    batch.setPlan(() => ({}));
    expect(verdicts(run)).toEqual(verdicts(onlineRun));
    expect(batch.batches.map((b) => b.lines.length)).toEqual([7, 2, 4]);
    expect(sumWaves(j.batch!.driver.reports)).toMatchObject({ resubmitted: 2, answered: 11, failed: 0 });
    expect(new BatchStore(store).list()[0]).toMatchObject({ state: 'cancelled', collected: true });
    store.close();
  });

  it('a failed batch (validation) is resubmitted once', async () => {
    batch.batches.length = 0;
    batch.setPlan((n) => (n === 1 ? { end: 'failed' } : {}));
    const store = freshStore();
    const { run } = await judge(store, {});
    batch.setPlan(() => ({}));
    expect(verdicts(run)).toEqual(verdicts(onlineRun));
    expect(new BatchStore(store).list()[0]).toMatchObject({ state: 'failed', message: 'scripted validation failure' });
    store.close();
  });

  it('budget at batch prices: a wave whose worst case does not fit is not submitted at all', async () => {
    batch.batches.length = 0;
    const store = freshStore();
    // gpt-4o: 2048 output tokens at $10/M = $0.02 online, $0.01 in a batch, per call; 7 calls in wave 1.
    const { run } = await judge(store, {}, { maxCostUsd: 0.05 });
    expect(batch.batches).toHaveLength(0);
    expect(run.stopped).toMatch(/--max-cost-usd 0.05 reached .*the next batch wave \(7 calls\) could cost up to 0\.0\d+\)$/);
    expect(run.items.filter((r) => r.route === 'not-judged')).toHaveLength(7);
    const ok = await judge(freshStore(), {}, { maxCostUsd: 0.2 });
    expect(ok.run.stopped).toBeUndefined();
    expect(batch.batches).toHaveLength(2);
    store.close();
  });
});

describe("judge --batch through Gemini's batch mode (real @google/genai SDK, local batch server)", () => {
  it('gives the verdicts an online Gemini run gives, in one job per cascade stage; an expired job and error lines are retried once', async () => {
    const s1 = freshStore();
    const on = (await judge(s1, 'online', { gemini: true })).run;
    s1.close();
    batch.batches.length = 0;
    batch.answered.length = 0;
    const s2 = freshStore();
    const { run, j } = await judge(s2, {}, { gemini: true });
    expect(verdicts(run)).toEqual(verdicts(on));
    expect(batch.batches.map((b) => [b.api, b.lines.length])).toEqual([
      ['gemini', 7],
      ['gemini', 4],
    ]);
    // The system prompt travels as Gemini's systemInstruction, as online.
    expect(batch.answered.every((r) => r.messages[0].role === 'system')).toBe(true);
    expect(j.client.stats.requests).toBe(11);
    s2.close();

    batch.batches.length = 0;
    batch.setPlan((n) => (n === 1 ? { end: 'expired', finished: 2 } : n === 3 ? { errorLine: (_id, req) => stageOf(req) === 'refuter' } : {}));
    const s3 = freshStore();
    const retried = await judge(s3, {}, { gemini: true });
    batch.setPlan(() => ({}));
    expect(verdicts(retried.run)).toEqual(verdicts(on));
    expect(batch.batches.map((b) => b.lines.length)).toEqual([7, 5, 4, 2]);
    s3.close();
  });
});

describe('audit --llm-agent --batch: the agents write their SQL through the batch engine', () => {
  it('gives the same predictions as online generation, one batch per agent, and a re-run asks nothing', async () => {
    const { loadBenchmark } = await import('../../src/benchmark/load-questions.js');
    const { generateAgentPredictions } = await import('../../src/audit/agents.js');
    const { questionOf } = await import('../helpers/fake-llm-server.js');
    const { DEV_JSON } = await import('../judge/spider-fixture.js');
    const full = loadBenchmark(DEV_JSON);
    const bench = { ...full, tasks: full.tasks.slice(0, 12) };
    const script = (req: { messages: { role: string; content: string }[] }) => {
      const t = bench.tasks.find((x) => x.question === questionOf(req as never));
      if (!t) return { status: 400 };
      // One agent gets prose for one task: that task is missing for it, with its reason, both ways.
      if (t.id === '3' && (req as { model?: string }).model === 'gpt-4o-mini') return { text: 'No idea.' };
      return { text: '```sql\n' + t.goldSql + '\n```' };
    };
    online.setScript(script as never);
    const batchSrv = await startFakeBatchServer(script as never);
    try {
      const agents = [
        { name: 'a', provider: 'openai' as const, model: 'gpt-4o' },
        { name: 'b', provider: 'openai' as const, model: 'gpt-4o-mini' },
      ];
      const common = { agents, bench, dbRoot: DB_ROOT, env: { OPENAI_API_KEY: KEY }, concurrency: 3 };
      const on = await generateAgentPredictions({ ...common, baseUrl: online.openaiBase, store: freshStore() });
      const store = freshStore();
      const withBatch = {
        ...common,
        baseUrl: batchSrv.openaiBase,
        store,
        batch: { sleep: noSleep, pollMs: 1 },
        batchTransportFor: () => createOpenAiBatchTransport({ apiKey: KEY, baseUrl: batchSrv.openaiBase }),
      };
      const b = await generateAgentPredictions(withBatch);
      const sqlOf = (r: typeof on) => r.predictions.map((p) => [p.system, [...p.byTask.values()].map((x) => [x.taskId, x.sql])]);
      expect(sqlOf(b)).toEqual(sqlOf(on));
      expect(on.agents.map((a) => a.failed)).toEqual([0, 1]);
      expect(b.agents.map((a) => [a.name, a.generated, a.failures])).toEqual(on.agents.map((a) => [a.name, a.generated, a.failures]));
      expect(b.agents.map((a) => a.calls)).toEqual([12, 12]);
      expect(batchSrv.batches.map((x) => x.lines.length)).toEqual([12, 12]);
      expect(b.batch).toMatchObject({ waves: 2, submitted: 24, answered: 24 });
      const again = await generateAgentPredictions(withBatch);
      expect(batchSrv.batches).toHaveLength(2);
      expect(again.agents.map((a) => [a.calls, a.cachedCalls])).toEqual([
        [0, 12],
        [0, 12],
      ]);
      store.close();
    } finally {
      online.setScript(routeScript);
      await batchSrv.close();
    }
  });
});
