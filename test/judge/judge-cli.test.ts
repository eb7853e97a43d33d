import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readItems } from '../../src/benchmark/items.js';
import { maxLineWidth, runCli, runCliAndKill } from '../helpers/cli.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer } from '../helpers/fake-llm-server.js';
import { ROUTE_CASES, routeJudgeArgs, routeScript, writeRouteFiles } from './spider-fixture.js';
import { ExitCode } from '../../src/exit-codes.js';

/** The route fixture leaves one item unscored (task 10: invalid answer after 2 attempts), so a full run is partial. */
const PARTIAL = ExitCode.Partial;

const KEY = 'sk-cli-SECRET-0123456789abcdef';
let server: FakeLlmServer;
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-judge-cli-'));
const { questions, preds } = writeRouteFiles(dir);
const TOTAL_CALLS = ROUTE_CASES.reduce((n, c) => n + c.calls, 0);

beforeAll(async () => {
  server = await startFakeLlmServer(routeScript);
});
afterAll(async () => server.close());

const args = (store: string, extra: string[] = []): string[] => routeJudgeArgs({ questions, preds }, server.openaiBase, store, extra);
const env = { OPENAI_API_KEY: KEY };

function storeCalls(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM llm_calls').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The parts of an item record that must not depend on caching or timing. */
const stable = (r: Record<string, unknown>) => {
  const { latencyMs: _l, cachedCalls: _c, ...rest } = r;
  return rest;
};

describe('sqlboard judge (CLI, real SDK against a local server)', () => {
  const store = join(dir, 'a.db');
  const items = join(dir, 'a.jsonl');

  it('prints per-system EX, judge accuracy, GoldX, AmbQ, unscored, calls, tokens and cost; writes --items', async () => {
    server.seen.length = 0;
    const r = await runCli(args(store, ['--json', '--items', items, '-j', '3']), { env });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(PARTIAL);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ judge: expect.stringMatching(/^gpt-4o-\d{4}-\d{2}-\d{2}$/), provider: 'openai', model: 'gpt-4o', comparator: 'bird', tasks: 8 });
    const s = out.systems[0];
    // EX: tasks 1 and 8 match (2 of 8). Judge: correct on 1 and 6 of 7 scored (task 10 unscored).
    expect(s).toMatchObject({ name: 'routes', n: 8, exCorrect: 2, scored: 7, correct: 2, goldX: 1, ambQ: 1, unscored: 1, notJudged: 0, calls: TOTAL_CALLS });
    expect(s.ex).toBeCloseTo(2 / 8, 12);
    expect(s.accuracy).toBeCloseTo(2 / 7, 12);
    expect(s.callsPerItem).toBeCloseTo(TOTAL_CALLS / 8, 12);
    expect(s.inputTokens).toBe(100 * TOTAL_CALLS);
    expect(s.costUsd).toBeCloseTo((TOTAL_CALLS * (100 * 2.5 + 20 * 10)) / 1e6, 12);
    expect(s.routes).toEqual({ 'pred-error': 1, match: 2, 'prover-reject': 2, 'prover-refuter': 2, prover: 1 });
    expect(out.thisRun).toMatchObject({ requests: TOTAL_CALLS, cacheHits: 0 });
    expect(server.seen).toHaveLength(TOTAL_CALLS);

    const recs = readItems(items);
    expect(recs).toHaveLength(8);
    const lines = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(lines[0]).slice(0, 6)).toEqual(['system', 'taskId', 'dbId', 'judge', 'ex', 'correct']);
    ROUTE_CASES.forEach((c, i) => {
      expect(lines[i]).toMatchObject({ system: 'routes', taskId: String(i), route: c.route, correct: c.correct, calls: c.calls });
      expect(typeof lines[i].goldX).toBe('boolean');
      expect(typeof lines[i].ambQ).toBe('boolean');
    });
    expect(lines[6].unscored).toMatch(/invalid answer/);
    expect(lines[6].correct).toBeNull();
    expect(lines[4]).toMatchObject({ goldX: true, ambQ: true, difficulty: 'medium' });

    // No key anywhere: stdout, stderr, items, store.
    for (const text of [r.stdout, r.stderr, readFileSync(items, 'utf8'), readFileSync(store).toString('latin1')]) expect(text).not.toContain('SECRET');
  });

  it('a re-run makes zero calls and writes the same items', async () => {
    server.seen.length = 0;
    const items2 = join(dir, 'a2.jsonl');
    const r = await runCli(args(store, ['--json', '--items', items2]), { env });
    expect(r.code).toBe(PARTIAL);
    expect(server.seen).toHaveLength(0);
    expect(JSON.parse(r.stdout).thisRun.requests).toBe(0);
    const a = readFileSync(items, 'utf8').trim().split('\n').map((l) => stable(JSON.parse(l)));
    const b = readFileSync(items2, 'utf8').trim().split('\n').map((l) => stable(JSON.parse(l)));
    expect(b).toEqual(a);
  });

  it('the terminal table lists the unscored item apart, with its reason', async () => {
    const r = await runCli(args(store), { env });
    expect(r.code).toBe(PARTIAL);
    expect(r.stdout).toContain('Unscored items');
    expect(maxLineWidth(r.stdout)).toBeLessThanOrEqual(100);
    expect(r.stdout).toMatch(/prover: invalid answer after 2 attempts/);
    expect(r.stdout).not.toContain('SECRET');
  });

  it('--max-calls stops cleanly, keeps what was done, and a re-run finishes the rest', async () => {
    const s = join(dir, 'budget.db');
    server.seen.length = 0;
    const r = await runCli(args(s, ['--json', '--max-calls', '3', '-j', '1']), { env });
    expect(r.code).toBe(PARTIAL);
    expect(server.seen.length).toBeLessThanOrEqual(3);
    expect(r.stderr).toMatch(/stopped: --max-calls 3 reached; \d+ items not judged/);
    const out = JSON.parse(r.stdout);
    expect(out.stopped).toBe('--max-calls 3 reached');
    expect(out.systems[0].notJudged).toBeGreaterThan(0);
    // The item needing no call is judged even after the stop.
    expect(out.systems[0].routes['pred-error']).toBe(1);
    expect(storeCalls(s)).toBe(server.seen.length);
    const first = server.seen.length;
    server.seen.length = 0;
    const r2 = await runCli(args(s, ['--json']), { env });
    expect(JSON.parse(r2.stdout).systems[0]).toMatchObject({ notJudged: 0, calls: TOTAL_CALLS });
    expect(server.seen).toHaveLength(TOTAL_CALLS - first);
  });

  it('--max-cost-usd stops before the limit could be passed, with --price overriding the table', async () => {
    server.seen.length = 0;
    const r = await runCli(args(join(dir, 'cost.db'), ['--json', '--price', '1000,1000', '--max-cost-usd', '2.5', '--max-output-tokens', '500', '-j', '1']), { env });
    expect(r.code).toBe(PARTIAL);
    const out = JSON.parse(r.stdout);
    expect(out.price).toEqual({ input: 1000, output: 1000 });
    expect(out.stopped).toMatch(/^--max-cost-usd 2.5 reached/);
    expect(out.thisRun.costUsd).toBeLessThanOrEqual(2.5);
    expect(out.thisRun.costUsd).toBeCloseTo(server.seen.length * 0.12, 9);
    expect(server.seen.length).toBeGreaterThan(0);
    expect(out.systems[0].notJudged).toBeGreaterThan(0);
  });

  it('--max-cost-usd without a known price is a user error naming the fix', async () => {
    const r = await runCli([...args(join(dir, 'c.db'), ['--max-cost-usd', '1']).map((a) => (a === 'gpt-4o' ? 'my-local-model' : a))], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-cost-usd needs a price for model "my-local-model".*--price/);
  });

  it('an unreachable endpoint stops the run with a user error naming it', async () => {
    const a = args(join(dir, 'down.db'), ['--max-attempts', '2']);
    a[a.indexOf(server.openaiBase)] = 'http://127.0.0.1:9/v1';
    const r = await runCli(a, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot reach the openai API at http:\/\/127\.0\.0\.1:9\/v1/);
  });

  it('a missing key is a user error naming the variable', async () => {
    const r = await runCli(args(join(dir, 'd.db')), { env: { OPENAI_API_KEY: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OPENAI_API_KEY/);
  });

  it('a rejected key stops the run with a user error, without printing the key', async () => {
    server.setScript(() => ({ status: 401, raw: JSON.stringify({ error: { message: 'Incorrect API key provided: sk-cli-SE***' } }) }));
    try {
      const r = await runCli(args(join(dir, 'e.db')), { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refused the credentials/);
      expect(r.stderr + r.stdout).not.toContain('SECRET');
    } finally {
      server.setScript(routeScript);
    }
  });

  it('kill -9 mid-run, then resume: no answered call is asked again and the result equals an uninterrupted run', async () => {
    const s = join(dir, 'killed.db');
    server.seen.length = 0;
    server.setScript(async (req) => ({ ...(await routeScript(req)), delayMs: 250 }));
    // Wait until a few answers are in, then kill without warning.
    expect(await runCliAndKill(args(s, ['-j', '1']), () => server.seen.length >= 4, { env })).toBe('SIGKILL');
    server.setScript(routeScript);
    const kept = storeCalls(s);
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(TOTAL_CALLS);

    server.seen.length = 0;
    const resumedItems = join(dir, 'resumed.jsonl');
    const r = await runCli(args(s, ['--items', resumedItems, '--json']), { env });
    expect(r.code).toBe(PARTIAL);
    expect(server.seen).toHaveLength(TOTAL_CALLS - kept);
    expect(storeCalls(s)).toBe(TOTAL_CALLS);
    const a = readFileSync(items, 'utf8').trim().split('\n').map((l) => stable(JSON.parse(l)));
    const b = readFileSync(resumedItems, 'utf8').trim().split('\n').map((l) => stable(JSON.parse(l)));
    expect(b).toEqual(a);
  }, 300_000);

  it('--provider gemini through the real @google/genai SDK gives the same verdicts', async () => {
    server.seen.length = 0;
    const gItems = join(dir, 'gemini.jsonl');
    const gArgs = args(join(dir, 'gemini.db'), ['--items', gItems, '--json'])
      .map((a) => (a === 'openai' ? 'gemini' : a === 'gpt-4o' ? 'gemini-2.5-flash' : a === server.openaiBase ? server.url : a));
    const r = await runCli(gArgs, { env: { GEMINI_API_KEY: 'AIza-gemini-SECRET-xyz', OPENAI_API_KEY: '' } });
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(PARTIAL);
    expect(server.seen.every((q) => q.api === 'gemini' && q.path === '/v1beta/models/gemini-2.5-flash:generateContent')).toBe(true);
    expect(server.seen).toHaveLength(TOTAL_CALLS);
    const out = JSON.parse(r.stdout);
    // The fake server reports modelVersion gemini-2.5-flash-001 (undated): the judge is named by the run date.
    expect(out.judge).toMatch(/^gemini-2\.5-flash-\d{4}-\d{2}-\d{2}$/);
    const g = readFileSync(gItems, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(g.map((x) => [x.route, x.correct])).toEqual(ROUTE_CASES.map((c) => [c.route, c.correct]));
    expect(r.stdout + r.stderr + readFileSync(gItems, 'utf8') + readFileSync(join(dir, 'gemini.db')).toString('latin1')).not.toContain('SECRET');
  });

  it('--record writes a replay file; --provider replay then judges offline with the same verdicts', async () => {
    const replayFile = join(dir, 'recorded.jsonl');
    const r1 = await runCli(args(store, ['--record', replayFile, '--json']), { env });
    expect(r1.code).toBe(PARTIAL);
    const lines = readFileSync(replayFile, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(TOTAL_CALLS);
    expect(readFileSync(replayFile, 'utf8')).not.toContain('SECRET');
    server.seen.length = 0;
    const replayItems = join(dir, 'replayed.jsonl');
    const rArgs = args(join(dir, 'replay.db'), ['--items', replayItems, '--json']);
    rArgs[rArgs.indexOf('openai')] = 'replay';
    rArgs.splice(rArgs.indexOf('--base-url'), 2, '--replay', replayFile);
    const r2 = await runCli(rArgs, { env: { OPENAI_API_KEY: '' } });
    expect(r2.stderr).not.toMatch(/internal error/);
    expect(r2.code).toBe(PARTIAL);
    expect(server.seen).toHaveLength(0);
    const a = readFileSync(items, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const b = readFileSync(replayItems, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const core = (x: Record<string, unknown>) => [x.taskId, x.route, x.correct, x.goldX, x.ambQ, x.proverReason, x.refuterReason, x.calls, x.inputTokens];
    expect(b.map(core)).toEqual(a.map(core));
  });
});
