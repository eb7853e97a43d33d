import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { openRunStore } from '../../src/store/run-store.js';
import type { RunStore } from '../../src/store/run-store.js';
import { createLiveJudge } from '../../src/judge/setup.js';
import { runJudge } from '../../src/judge/run.js';
import type { JudgeRunResult } from '../../src/judge/run.js';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { createGeminiProvider } from '../../src/llm/providers/gemini.js';
import { dataBlockOf, startFakeLlmServer, stageOf } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer } from '../helpers/fake-llm-server.js';
import { DB_ROOT, ROUTE_CASES, routeBench, routeScript } from './spider-fixture.js';

const KEY = 'sk-judge-SECRET-key-987654321';
let server: FakeLlmServer;
let engine: ExecutionEngine;
beforeAll(async () => {
  server = await startFakeLlmServer(routeScript);
  engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 2 });
});
afterAll(async () => {
  await engine.close();
  await server.close();
});

async function judgeOnce(store: RunStore, provider: 'openai' | 'gemini'): Promise<JudgeRunResult> {
  const { bench, system } = routeBench();
  const p =
    provider === 'openai'
      ? createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase })
      : createGeminiProvider({ apiKey: KEY, baseUrl: server.url });
  const judge = createLiveJudge({ provider: p, model: 'gpt-4o', dbRoot: DB_ROOT, store, concurrency: 3 });
  return runJudge({ bench, systems: [system], executor: engine, deps: judge.deps, concurrency: 3, verdicts: judge.verdicts, judgeKey: judge.judgeKey, judgeName: judge.name });
}

describe.each(['openai', 'gemini'] as const)('the cascade on real Spider databases (%s)', (provider) => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlboard-judge-'));
  const storeFile = join(dir, 'run.db');

  it('sends every item down its route, with verdicts, labels and usage', async () => {
    server.seen.length = 0;
    const store = openRunStore(storeFile);
    const res = await judgeOnce(store, provider);
    store.close();
    expect(res.stopped).toBeUndefined();
    for (const c of ROUTE_CASES) {
      const it = res.items.find((r) => r.taskId === c.taskId)!;
      expect({ task: c.taskId, route: it.route, correct: it.correct, calls: it.calls }).toEqual({ task: c.taskId, route: c.route, correct: c.correct, calls: c.calls });
    }
    const byTask = new Map(res.items.map((r) => [r.taskId, r]));
    // pred-error: no call, the error kept
    expect(byTask.get('0')!.predError).toMatch(/no such table/);
    expect(byTask.get('0')!.ex).toBe(false);
    // match mode: EX true; overturned accidental agreement counts 0 but EX stays 1
    expect(byTask.get('1')!).toMatchObject({ ex: true, refuterMode: 'match', refuterOverturn: false });
    expect(byTask.get('8')!).toMatchObject({ ex: true, correct: false, refuterMode: 'match', refuterOverturn: true, refuterReason: 'age >= 20 includes 20-year-olds' });
    // the Prover's reasons and the Refuter's labels
    expect(byTask.get('2')!).toMatchObject({ ex: false, proverVerdict: false, proverReason: 'age column missing' });
    expect(byTask.get('2')!.refuterMode).toBeUndefined();
    expect(byTask.get('4')!).toMatchObject({ proverVerdict: true, refuterMode: 'full', refuterOverturn: true, goldX: false, ambQ: false });
    expect(byTask.get('6')!).toMatchObject({ proverVerdict: true, refuterOverturn: false, goldX: true, ambQ: true, ambiguity: 'question' });
    // unscored: shown apart, never right or wrong, with why
    expect(byTask.get('10')!.unscored).toMatch(/prover: invalid answer after 2 attempts \(no JSON object found/);
    // prompt hashes stored with each verdict
    expect(byTask.get('6')!.proverPromptHash).toMatch(/^[0-9a-f]{16}$/);
    expect(byTask.get('6')!.refuterPromptHash).toMatch(/^[0-9a-f]{16}$/);
    expect(byTask.get('6')!.refuterPromptHash).not.toBe(byTask.get('1')!.refuterPromptHash);
    // usage recorded from the API's counts
    expect(byTask.get('4')!).toMatchObject({ inputTokens: 200, outputTokens: 40 });
    expect(byTask.get('4')!.costUsd).toBeCloseTo((200 * 2.5 + 40 * 10) / 1e6, 12);
    // the calls made = the calls recorded
    expect(server.seen).toHaveLength(ROUTE_CASES.reduce((n, c) => n + c.calls, 0));
  });

  it('the Prover never sees the gold; the Refuter sees both results; match mode sees no results', () => {
    const gold4 = 'SELECT avg(age) ,  min(age) ,  max(age) FROM singer WHERE country  =  \'France\'';
    for (const r of server.seen) {
      const all = r.messages.map((m) => m.content).join('\n');
      const stage = stageOf(r);
      if (stage === 'prover') {
        expect(all).not.toContain('Gold SQL');
        expect(all).not.toContain(gold4);
        expect(all).toContain('## Result of the predicted SQL');
        expect(all).toContain('CREATE TABLE "singer"');
      }
      if (stage === 'refuter') {
        expect(all).toContain('## Result of the gold SQL');
        expect(all).toContain("## The Prover's reason");
      }
      if (stage === 'refuter-match') expect(all).not.toContain('## Result of');
    }
    const refuter4 = server.seen.find((r) => stageOf(r) === 'refuter' && r.messages[1].content.includes('from France'))!;
    expect(refuter4.messages[1].content).toContain(gold4);
    expect(dataBlockOf(refuter4, 'pred_result')).toMatch(/^rows: 1 \(all shown\)\n/);
    expect(refuter4.messages[1].content).toContain('computes the stats');
  });

  it('a re-run makes zero calls and gives the same records; the key is nowhere in the store', async () => {
    server.seen.length = 0;
    const store = openRunStore(storeFile);
    const first = await judgeOnce(store, provider);
    store.close();
    expect(server.seen).toHaveLength(0);
    expect(first.items.map((r) => [r.taskId, r.route, r.correct])).toEqual(ROUTE_CASES.map((c) => [c.taskId, c.route, c.correct]));
    for (const f of [storeFile, `${storeFile}-wal`]) {
      let bytes = '';
      try {
        bytes = readFileSync(f).toString('latin1');
      } catch {
        continue;
      }
      expect(bytes).not.toContain('SECRET');
    }
  });

  it('with the verdicts gone, the response cache alone still answers every call', async () => {
    server.seen.length = 0;
    const store = openRunStore(storeFile);
    store.db.exec('DELETE FROM judge_verdicts');
    const again = await judgeOnce(store, provider);
    store.close();
    expect(server.seen).toHaveLength(0);
    expect(again.items.find((r) => r.taskId === '6')!.cachedCalls).toBe(2);
  });
});

describe('items without a usable answer (real Spider task, local server)', () => {
  it('an answer cut at the output limit is unscored and says to raise --max-output-tokens', async () => {
    server.setScript((req) => (stageOf(req) === 'prover' ? { text: '', truncated: true } : routeScript(req)));
    try {
      const store = openRunStore(':memory:');
      const res = await judgeOnce(store, 'openai');
      store.close();
      const t2 = res.items.find((r) => r.taskId === '2')!;
      expect(t2).toMatchObject({ route: 'prover', correct: null, calls: 2 });
      expect(t2.unscored).toMatch(/cut off at the output-token limit \(2048; raise --max-output-tokens\)/);
    } finally {
      server.setScript(routeScript);
    }
  });

  it('a provider that keeps failing leaves the item unscored, unstored, and a re-run asks again', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sqlboard-judge-')), 'fail.db');
    server.setScript((req) => (stageOf(req) === 'prover' ? { status: 400 } : routeScript(req)));
    try {
      let store = openRunStore(file);
      const res = await judgeOnce(store, 'openai');
      store.close();
      const t2 = res.items.find((r) => r.taskId === '2')!;
      expect(t2).toMatchObject({ route: 'prover', correct: null, transient: true });
      expect(t2.unscored).toMatch(/^provider error: HTTP 400/);
      server.setScript(routeScript);
      server.seen.length = 0;
      store = openRunStore(file);
      const again = await judgeOnce(store, 'openai');
      store.close();
      expect(again.items.find((r) => r.taskId === '2')).toMatchObject({ route: 'prover-reject', correct: false });
      // Only the items that failed are asked again: 2, 4, 6 (Prover), 11 (Prover twice), 10 (twice) and the Refuter for 4 and 6.
      expect(server.seen.every((r) => stageOf(r) !== 'refuter-match')).toBe(true);
      expect(server.seen).toHaveLength(9);
    } finally {
      server.setScript(routeScript);
    }
  });
});

describe('result previews in the prompts (real pets_1 results)', () => {
  it('the Refuter sees the first 20 rows of each result and the true row counts', async () => {
    const { loadBenchmark } = await import('../../src/benchmark/load-questions.js');
    const { DEV_JSON } = await import('./spider-fixture.js');
    const task = loadBenchmark(DEV_JSON).tasks.find((t) => t.id === '61')!;
    // Students without a cat, plus their ids: 33 rows either way, but the results differ.
    const pred = 'SELECT stuid, major, age FROM student WHERE stuid NOT IN (SELECT stuid FROM has_pet)';
    server.seen.length = 0;
    server.setScript((req) =>
      stageOf(req) === 'prover'
        ? { text: '{"reason": "ok", "verdict": true}' }
        : { text: '{"reason": "dog owners are missing", "overturn": true, "ambiguity": "none", "goldCorrect": true}' },
    );
    try {
      const store = openRunStore(':memory:');
      const judge = createLiveJudge({ provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }), model: 'gpt-4o', dbRoot: DB_ROOT, store });
      const res = await runJudge({
        bench: { format: 'spider', source: DEV_JSON, tasks: [task] },
        systems: [{ system: 's', file: 'inline', byTask: new Map([['61', { taskId: '61', sql: pred }]]) }],
        executor: engine,
        deps: judge.deps,
        concurrency: 1,
        verdicts: judge.verdicts,
        judgeKey: judge.judgeKey,
        judgeName: 'test-judge',
      });
      store.close();
      expect(res.items[0]).toMatchObject({ route: 'prover-refuter', correct: false, judge: 'test-judge' });
      const refuter = server.seen.find((r) => stageOf(r) === 'refuter')!.messages[1].content;
      const req = server.seen.find((r) => stageOf(r) === 'refuter')!;
      expect(refuter).toContain('## Result of the gold SQL\n<<<DATA-');
      const gold = dataBlockOf(req, 'gold_result')!.split('\n');
      expect(gold[0]).toBe('rows: 33 (first 20 shown)');
      expect(gold[1]).toBe('columns: Major | Age');
      expect(gold).toHaveLength(2 + 20 + 1);
      expect(gold[22]).toBe('not shown: 13 more rows');
      const predRes = dataBlockOf(req, 'pred_result')!.split('\n');
      expect(predRes[0]).toMatch(/^rows: \d+ \((first 20|all) shown\)$/);
      expect(predRes[1]).toBe('columns: StuID | Major | Age');
    } finally {
      server.setScript(routeScript);
    }
  });
});
