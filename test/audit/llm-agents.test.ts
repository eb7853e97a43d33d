import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadBenchmark } from '../../src/benchmark/load-questions.js';
import { loadPredictions } from '../../src/benchmark/load-predictions.js';
import type { Benchmark, Task } from '../../src/benchmark/types.js';
import { UserError } from '../../src/errors.js';
import { parseLlmAgentSpecs } from '../../src/audit/agent-specs.js';
import { generateAgentPredictions } from '../../src/audit/agents.js';
import type { LlmAgentsOptions } from '../../src/audit/agents.js';
import { openRunStore } from '../../src/store/run-store.js';
import { SPIDER, maxLineWidth, runCli, runCliAndKill } from '../helpers/cli.js';
import { questionOf, startFakeLlmServer } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer, Reply, SeenRequest } from '../helpers/fake-llm-server.js';

const KEY = 'sk-agents-SECRET-0123456789abcdef';
const GEMINI_KEY = 'AIza-agents-SECRET-gemini-0123';
const DB_ROOT = join(SPIDER, 'database');
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-llm-agents-'));
const questions = join(dir, 'questions.json');

// Real Spider dev tasks: the first 20 of concert_singer and the first 10 of pets_1 (positions 0–19, 45–54).
const POSITIONS = [...Array.from({ length: 20 }, (_, i) => i), ...Array.from({ length: 10 }, (_, i) => 45 + i)];
let bench: Benchmark;
let server: FakeLlmServer;

/** The questions whose scripted answer is special; all others get their gold SQL, fenced. */
let MALFORMED: Task;
let FLAKY: Task;
let PLAIN: Task;

const taskOf = (req: SeenRequest): Task => {
  const q = questionOf(req);
  const t = bench.tasks.find((x) => x.question === q);
  if (!t) throw new Error(`unscripted question ${q}`);
  return t;
};

/** Scripted agent: fenced gold SQL with a sentence around it; prose for MALFORMED; bare SQL for PLAIN; 429 then 500 for FLAKY. */
function agentScript(req: SeenRequest): Reply {
  const t = taskOf(req);
  if (t === MALFORMED) return { text: 'I am sorry, the schema does not say which singers are meant.' };
  if (t === FLAKY) {
    const tries = server.seen.filter((s) => s.api === req.api && questionOf(s) === t.question).length;
    if (tries === 1) return { status: 429, headers: { 'retry-after': '1' } };
    if (tries === 2) return { status: 500 };
  }
  if (t === PLAIN) return { text: `${t.goldSql};` };
  return { text: `Here is the query:\n\`\`\`sql\n${t.goldSql}\n\`\`\`\nIt counts what was asked.`, usage: { input: 1000, output: 50 } };
}

beforeAll(async () => {
  const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
  writeFileSync(questions, JSON.stringify(POSITIONS.map((p) => dev[p])));
  bench = loadBenchmark(questions);
  MALFORMED = bench.tasks[5]!;
  FLAKY = bench.tasks[7]!;
  PLAIN = bench.tasks[22]!;
  server = await startFakeLlmServer(agentScript);
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const noSleep = (waits: number[]) => (ms: number) => {
  waits.push(ms);
  return Promise.resolve();
};
const fastRetry = { maxAttempts: 4, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5000 };

function storeText(file: string): string {
  return [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('');
}

function storeCalls(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM llm_calls').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('--llm-agent specs', () => {
  it('parse NAME=PROVIDER:MODEL, keep colons in the model, refuse unknown providers and taken names', () => {
    expect(parseLlmAgentSpecs(['gpt=openai:gpt-4o', 'local=openai:llama3.1:8b'])).toEqual([
      { name: 'gpt', provider: 'openai', model: 'gpt-4o' },
      { name: 'local', provider: 'openai', model: 'llama3.1:8b' },
    ]);
    expect(() => parseLlmAgentSpecs(['gpt=claude:x'])).toThrow(/unknown provider "claude"/);
    expect(() => parseLlmAgentSpecs(['gpt-4o'])).toThrow(/NAME=PROVIDER:MODEL/);
    expect(() => parseLlmAgentSpecs(['a=openai:m'], ['a'])).toThrow(UserError);
  });
});

describe('live LLM agents (real SDKs against a local server, real Spider dev tasks)', () => {
  const options = (store: string, extra: Partial<LlmAgentsOptions> = {}): LlmAgentsOptions => ({
    agents: [{ name: 'gpt', provider: 'openai', model: 'gpt-4o' }],
    bench,
    dbRoot: DB_ROOT,
    baseUrl: server.openaiBase,
    env: { OPENAI_API_KEY: KEY },
    store: openRunStore(store),
    concurrency: 3,
    retry: fastRetry,
    ...extra,
  });

  it('generates one SQL per task from schema, question and evidence (never the gold), retrying 429 and 500, a malformed answer missing with its reason', async () => {
    server.seen.length = 0;
    server.setScript(agentScript);
    // Spider has no evidence: give two tasks some, to see it reach the prompt.
    const withEvidence: Benchmark = { ...bench, tasks: bench.tasks.map((t, i) => (i === 0 || i === 20 ? { ...t, evidence: `evidence for task ${i}: weight is in kilograms` } : t)) };
    const file = join(dir, 'core.db');
    const waits: number[] = [];
    const progress: [number, number][] = [];
    const o = options(file, { bench: withEvidence, sleep: noSleep(waits), onProgress: (d, t) => progress.push([d, t]) });
    const r = await generateAgentPredictions(o);
    o.store!.close();

    // Every request: schema, question and evidence of its own task, and no gold SQL of any task.
    for (const req of server.seen) {
      expect(req.path).toBe('/v1/chat/completions');
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      const t = withEvidence.tasks.find((x) => x.question === questionOf(req))!;
      const [system, user] = req.messages;
      expect(system!.content).toMatch(/^You are an expert SQLite developer/);
      expect(user!.content).toMatch(t.dbId === 'pets_1' ? /CREATE TABLE "?Student"?/i : /CREATE TABLE "?stadium"?/i);
      expect(user!.content).toContain(`## Question\n${t.question}\n`);
      expect(user!.content).toContain(`## Evidence (external knowledge)\n${t.evidence === '' ? '(none)' : t.evidence}`);
      for (const g of withEvidence.tasks) expect(user!.content).not.toContain(g.goldSql);
    }
    expect(server.seen.filter((s) => s.messages[1]!.content.includes('weight is in kilograms'))).toHaveLength(2);

    // 30 tasks; FLAKY took three requests (429 with Retry-After: 1 s honoured, then 500, then the answer).
    expect(server.seen).toHaveLength(32);
    expect(server.seen.filter((s) => questionOf(s) === FLAKY.question)).toHaveLength(3);
    expect(waits[0]).toBe(1000);
    expect(waits).toHaveLength(2);

    const [p] = r.predictions;
    expect(p!.system).toBe('gpt');
    expect(p!.byTask.size).toBe(29);
    // Fenced answers: the SQL inside the fence; a bare answer: its trailing semicolon dropped.
    expect(p!.byTask.get(bench.tasks[0]!.id)!.sql).toBe(bench.tasks[0]!.goldSql);
    expect(p!.byTask.get(FLAKY.id)!.sql).toBe(FLAKY.goldSql);
    expect(p!.byTask.get(PLAIN.id)!.sql).toBe(PLAIN.goldSql);
    // The malformed answer is a missing prediction, not a wrong SQL, and the note says so.
    expect(p!.byTask.has(MALFORMED.id)).toBe(false);
    expect(p!.notes![0]).toMatch(/^1 of 30 tasks have no generated SQL and count as missing predictions \(1 malformed answer\); e\.g\. task 5: malformed answer: no SELECT query/);

    const s = r.agents[0]!;
    expect(s).toMatchObject({ name: 'gpt', provider: 'openai', model: 'gpt-4o', tasks: 30, generated: 29, failed: 1, calls: 30, cachedCalls: 0 });
    expect(s.failures).toEqual([{ taskId: MALFORMED.id, reason: expect.stringMatching(/^malformed answer: no SELECT query in "I am sorry/) }]);
    // 28 answers of 1000 + 50 tokens, 2 of the server's default 100 + 20 (MALFORMED, PLAIN); failed attempts cost nothing.
    expect(s.inputTokens).toBe(28 * 1000 + 2 * 100);
    expect(s.outputTokens).toBe(28 * 50 + 2 * 20);
    expect(s.costUsd).toBeCloseTo((s.inputTokens * 2.5 + s.outputTokens * 10) / 1e6, 12);
    expect(progress.at(-1)).toEqual([30, 30]);
    expect(r.stopped).toBeUndefined();
    expect(storeText(file)).not.toContain('SECRET');

    // A re-run: every answer from the run store, zero HTTP requests, the same SQL.
    server.seen.length = 0;
    const o2 = options(file, { bench: withEvidence, env: { OPENAI_API_KEY: 'sk-rotated-key-000000' } });
    const again = await generateAgentPredictions(o2);
    o2.store!.close();
    expect(server.seen).toHaveLength(0);
    expect(again.agents[0]).toMatchObject({ calls: 0, cachedCalls: 30, generated: 29, failed: 1, costUsd: 0 });
    expect(again.agents[0]!.answersCostUsd).toBeCloseTo(s.costUsd!, 12);
    expect([...again.predictions[0]!.byTask]).toEqual([...p!.byTask]);
  });

  it('gemini through the real @google/genai SDK, key from GEMINI_API_KEY', async () => {
    server.seen.length = 0;
    server.setScript(agentScript);
    const file = join(dir, 'gemini.db');
    const o = options(file, { agents: [{ name: 'gem', provider: 'gemini', model: 'gemini-2.5-flash' }], baseUrl: server.url, env: { GEMINI_API_KEY: GEMINI_KEY }, sleep: noSleep([]) });
    const r = await generateAgentPredictions(o);
    o.store!.close();
    expect(server.seen.every((q) => q.api === 'gemini' && q.path === '/v1beta/models/gemini-2.5-flash:generateContent')).toBe(true);
    expect(server.seen[0]!.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(server.seen[0]!.messages[0]!.content).toMatch(/^You are an expert SQLite developer/);
    expect(r.agents[0]).toMatchObject({ generated: 29, failed: 1, calls: 30 });
    expect(r.predictions[0]!.byTask.get(bench.tasks[3]!.id)!.sql).toBe(bench.tasks[3]!.goldSql);
    expect(storeText(file)).not.toContain('SECRET');
  });

  it('a server error past every retry makes that task missing; a refused key stops the run with a user error', async () => {
    server.seen.length = 0;
    server.setScript((req) => (taskOf(req) === FLAKY ? { status: 503 } : agentScript(req)));
    const o = options(join(dir, 'down.db'), { sleep: noSleep([]) });
    const r = await generateAgentPredictions(o);
    o.store!.close();
    expect(r.agents[0]!.failures.map((f) => f.taskId)).toEqual([MALFORMED.id, FLAKY.id]);
    expect(r.agents[0]!.failures[1]!.reason).toMatch(/^provider error: HTTP 503.*gave up after 4 attempts/);
    expect(server.seen.filter((s) => questionOf(s) === FLAKY.question)).toHaveLength(4);

    server.setScript(() => ({ status: 401, raw: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-agents-SE***' } }) }));
    const o2 = options(join(dir, 'denied.db'), { sleep: noSleep([]) });
    try {
      await expect(generateAgentPredictions(o2)).rejects.toThrow(/refused the credentials/);
    } finally {
      o2.store!.close();
      server.setScript(agentScript);
    }
  });

  it('--max-calls stops generation (the rest missing, with the reason); a re-run asks only what was never answered', async () => {
    server.seen.length = 0;
    server.setScript(agentScript);
    const file = join(dir, 'budget.db');
    const two = [
      { name: 'a', provider: 'openai' as const, model: 'gpt-4o' },
      { name: 'b', provider: 'openai' as const, model: 'gpt-4o-mini' },
    ];
    const o = options(file, { agents: two, maxCalls: 8, concurrency: 1, sleep: noSleep([]) });
    const r = await generateAgentPredictions(o);
    o.store!.close();
    expect(r.stopped).toBe('--max-calls 8 reached');
    expect(server.seen).toHaveLength(8);
    // Task by task across agents: both agents got the first four tasks.
    expect(r.agents.map((a) => a.generated)).toEqual([4, 4]);
    expect(r.agents[0]!.failures[0]).toEqual({ taskId: bench.tasks[4]!.id, reason: 'not generated: --max-calls 8 reached' });
    server.seen.length = 0;
    const o2 = options(file, { agents: two, sleep: noSleep([]) });
    const r2 = await generateAgentPredictions(o2);
    o2.store!.close();
    // 60 answers in all, and FLAKY's question failed twice (429, 500: the script counts both agents' tries).
    expect(server.seen).toHaveLength(60 - 8 + 2);
    expect(r2.agents.map((a) => [a.generated, a.cachedCalls])).toEqual([
      [29, 4],
      [29, 4],
    ]);
  });

  it('--base-url with both openai and gemini agents is refused', async () => {
    const o = options(join(dir, 'amb.db'), {
      agents: [
        { name: 'a', provider: 'openai', model: 'gpt-4o' },
        { name: 'b', provider: 'gemini', model: 'gemini-2.5-flash' },
      ],
    });
    try {
      await expect(generateAgentPredictions(o)).rejects.toThrow(/--base-url is ambiguous/);
    } finally {
      o.store!.close();
    }
  });
});

describe('sqlboard audit --llm-agent (CLI)', () => {
  const fileA = join(dir, 'a.sql');
  const fileB = join(dir, 'b.sql');
  const env = { OPENAI_API_KEY: KEY };
  const args = (store: string, extra: string[] = []): string[] => [
    'audit',
    '--questions', questions,
    '--db-root', DB_ROOT,
    '--agent', `a=${fileA}`,
    '--agent', `b=${fileB}`,
    '--llm-agent', 'gpt=openai:gpt-4o',
    '--base-url', server.openaiBase,
    '--store', store,
    '--workers', '2',
    ...extra,
  ];

  beforeAll(() => {
    // Agent a copies the gold; agent b drops the ORDER BY's direction and the WHERE on a few tasks.
    writeFileSync(fileA, bench.tasks.map((t) => `${t.goldSql.replace(/\s+/g, ' ')}\t${t.dbId}`).join('\n') + '\n');
    writeFileSync(fileB, bench.tasks.map((t, i) => `${(i % 4 === 0 ? t.goldSql.replace(/ DESC\b/i, ' ASC').replace(/\s+WHERE[\s\S]*$/i, '') : t.goldSql).replace(/\s+/g, ' ')}\t${t.dbId}`).join('\n') + '\n');
  });

  it('two file agents + one LLM agent: runs end to end, lists the LLM agent in --json, saves its SQL for sqlboard score; no key anywhere', async () => {
    server.seen.length = 0;
    server.setScript(agentScript);
    const store = join(dir, 'cli.db');
    const saved = join(dir, 'saved');
    const r = await runCli(args(store, ['--json', '-j', '3', '--save-agent-sql', saved]), { env });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.tasks).toBe(30);
    expect(out.agents).toEqual(['a', 'b', 'gpt']);
    expect(out.llmAgents).toHaveLength(1);
    expect(out.llmAgents[0]).toMatchObject({ name: 'gpt', provider: 'openai', model: 'gpt-4o', generated: 29, failed: 1, calls: 30, cachedCalls: 0 });
    expect(out.llmAgents[0].costUsd).toBeGreaterThan(0);
    expect(out.llmAgents[0].failures[0]).toMatchObject({ taskId: MALFORMED.id });
    expect(r.stderr).toMatch(/gpt: 1 of 30 tasks have no generated SQL and count as missing predictions/);
    // One request per task (30) and FLAKY's two retries (the CLI waits the 1 s the 429 asked for).
    expect(server.seen).toHaveLength(32);

    // The saved file is Spider text, one line per task, and sqlboard score reads it back.
    const savedFile = join(saved, 'gpt.sql');
    const lines = readFileSync(savedFile, 'utf8').split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(30);
    expect(lines[Number(MALFORMED.id)]).toBe(`\t${MALFORMED.dbId}`);
    const back = loadPredictions(savedFile, bench, 'gpt');
    expect(back.byTask.get(FLAKY.id)!.sql).toBe(FLAKY.goldSql);
    const score = await runCli(['score', '--questions', questions, '--db-root', DB_ROOT, '--system', `gpt=${savedFile}`, '--store', store, '--json', '--workers', '2']);
    expect(score.code).toBe(0);
    expect(JSON.parse(score.stdout).systems[0]).toMatchObject({ name: 'gpt', n: 30, correct: 29 });

    for (const text of [r.stdout, r.stderr, readFileSync(savedFile, 'utf8'), storeText(store)]) expect(text).not.toContain('SECRET');

    // The table names the LLM agents, their calls and cost.
    const table = await runCli(args(store), { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('LLM agents');
    expect(table.stdout).toMatch(/gpt.*openai:gpt-4o.*29.*1/);
    expect(maxLineWidth(table.stdout)).toBeLessThanOrEqual(100);
  }, 300_000);

  it('a re-run makes zero HTTP calls and gives the same flags', async () => {
    const store = join(dir, 'cli.db');
    const first = await runCli(args(store, ['--json']), { env });
    server.seen.length = 0;
    const r = await runCli(args(store, ['--json']), { env: { OPENAI_API_KEY: 'sk-other-key-00000000' } });
    expect(r.code).toBe(0);
    expect(server.seen).toHaveLength(0);
    const out = JSON.parse(r.stdout);
    expect(out.llmAgents[0]).toMatchObject({ calls: 0, cachedCalls: 30, generated: 29, costUsd: 0 });
    expect(out.flagged).toBe(JSON.parse(first.stdout).flagged);
  }, 300_000);

  it('kill -9 mid-generation, then resume: no answered call is asked again', async () => {
    const store = join(dir, 'killed.db');
    server.seen.length = 0;
    server.setScript((req) => ({ ...agentScript(req), delayMs: 150 }));
    expect(await runCliAndKill(args(store, ['-j', '1']), () => server.seen.length >= 5, { env })).toBe('SIGKILL');
    server.setScript(agentScript);
    const kept = storeCalls(store);
    expect(kept).toBeGreaterThanOrEqual(3);
    expect(kept).toBeLessThan(30);
    server.seen.length = 0;
    const r = await runCli(args(store, ['--json']), { env });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.llmAgents[0]).toMatchObject({ cachedCalls: kept, generated: 29 });
    expect(storeCalls(store)).toBe(30);
  }, 300_000);

  it('fewer than 3 agents in all is a user error; --llm-agent counts toward the 3', async () => {
    const r = await runCli(['audit', '--questions', questions, '--db-root', DB_ROOT, '--agent', `a=${fileA}`, '--llm-agent', 'gpt=openai:gpt-4o'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/at least 3 agents \(got 2\)/);
  });
});
