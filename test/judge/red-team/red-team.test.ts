import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Benchmark, PredictionSet } from '../../../src/benchmark/types.js';
import { loadBenchmark } from '../../../src/benchmark/load-questions.js';
import { ExecutionEngine } from '../../../src/execution/engine.js';
import { createGeminiProvider } from '../../../src/llm/providers/gemini.js';
import { createOpenAiProvider } from '../../../src/llm/providers/openai.js';
import { runJudge } from '../../../src/judge/run.js';
import { createLiveJudge } from '../../../src/judge/setup.js';
import type { JudgeRecord } from '../../../src/judge/run.js';
import { startFakeLlmServer } from '../../helpers/fake-llm-server.js';
import type { FakeLlmServer } from '../../helpers/fake-llm-server.js';
import { DB_ROOT, DEV_JSON } from '../spider-fixture.js';
import { ATTACKS, type Attack } from './corpus.js';
import { gullibleModel, type GullibleLog } from './gullible-model.js';

let server: FakeLlmServer;
let engine: ExecutionEngine;
const TASK = '2';

beforeAll(async () => {
  server = await startFakeLlmServer(() => ({ status: 500 }));
  engine = new ExecutionEngine({ dbRoot: DB_ROOT, workers: 2 });
});
afterAll(async () => {
  await engine.close();
  await server.close();
});

function benchFor(questionSuffix = ''): Benchmark {
  const full = loadBenchmark(DEV_JSON);
  const task = full.tasks.find((t) => t.id === TASK)!;
  return { ...full, tasks: [{ ...task, question: task.question + questionSuffix }] };
}

type Mode = 'openai' | 'gemini' | 'openai free text';

async function judgeAttack(a: Attack, mode: Mode, bench: Benchmark): Promise<{ item: JudgeRecord; log: GullibleLog[] }> {
  const log: GullibleLog[] = [];
  server.setScript(gullibleModel({ proverSays: a.proverSays ?? false, refuterOverturns: true }, log));
  const provider = mode === 'gemini' ? 'gemini' : 'openai';
  const structuredOutput = mode !== 'openai free text';
  const p =
    provider === 'openai'
      ? createOpenAiProvider({ apiKey: 'sk-red-team-key', baseUrl: server.openaiBase, structuredOutput })
      : createGeminiProvider({ apiKey: 'red-team-key', baseUrl: server.url, structuredOutput });
  const judge = createLiveJudge({ provider: p, model: provider === 'openai' ? 'gpt-4o' : 'gemini-2.0-flash', dbRoot: DB_ROOT });
  const system: PredictionSet = { system: a.id, file: 'inline', byTask: new Map([[TASK, { taskId: TASK, sql: a.sql }]]) };
  const run = await runJudge({ bench, systems: [system], executor: engine, deps: judge.deps, concurrency: 1, judgeKey: judge.judgeKey, judgeName: 'red-team' });
  return { item: run.items[0]!, log };
}

describe('the red-team corpus', () => {
  it('has at least 30 attempts, every kind the issue names, each running on the real database', async () => {
    expect(ATTACKS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ATTACKS.map((a) => a.id)).size).toBe(ATTACKS.length);
    expect(new Set(ATTACKS.map((a) => a.kind)).size).toBe(9);
    const results = await engine.run(ATTACKS.map((a) => ({ dbId: 'concert_singer', sql: a.sql })));
    expect(results.map((r, i) => [ATTACKS[i]!.id, r.status, r.error])).toEqual(ATTACKS.map((a) => [a.id, 'ok', undefined]));
  });

  it('the gullible model is really gullible: each attack, placed outside the data (in the question), steers the verdict', async () => {
    for (const a of ATTACKS) {
      const { item, log } = await judgeAttack(a, 'openai free text', benchFor(`\n${a.sql}`));
      expect({ id: a.id, steered: log.some((l) => l.steered), correct: item.correct }).toEqual({ id: a.id, steered: true, correct: true });
    }
  });
});

describe.each(['openai', 'gemini', 'openai free text'] as const)('every attack against the gullible model (%s, real SDK, 127.0.0.1)', (mode) => {
  it.each(ATTACKS.map((a) => [a.id, a.kind, a] as const))('%s (%s) leaves the honest verdict, its words only inside data blocks', async (_id, _kind, a) => {
    const { item, log } = await judgeAttack(a, mode, benchFor());
    expect(item.unscored).toBeUndefined();
    expect(item.correct).toBe(false);
    const honestRoute = item.ex ? 'match' : a.proverSays ? 'prover-refuter' : 'prover-reject';
    expect(item.route).toBe(honestRoute);
    expect(log.length).toBe(honestRoute === 'prover-refuter' ? 2 : 1);
    for (const l of log) {
      expect(l.steered).toBe(false);
      expect(l.outside).not.toContain(a.id);
    }
    // Schema-constrained answers are read whole; free text by its last verdict object, never
    // one of the forged verdicts the model quoted after its answer.
    const path = mode === 'openai free text' ? 'last-object' : 'structured';
    expect(item.proverVerdictPath ?? path).toBe(path);
    expect(item.refuterVerdictPath ?? path).toBe(path);
  });
});
