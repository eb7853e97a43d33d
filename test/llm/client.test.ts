import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget, BudgetExceeded } from '../../src/llm/budget.js';
import { LlmCache } from '../../src/llm/cache.js';
import { LlmClient } from '../../src/llm/client.js';
import { costUsd, lookupPrice, parsePriceFlag, readPriceFile } from '../../src/llm/pricing.js';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { createReplayProvider, replayRequestHash } from '../../src/llm/providers/replay.js';
import { createProvider } from '../../src/llm/providers/index.js';
import { isDatedModel, judgeName } from '../../src/llm/model-name.js';
import { VerdictStore } from '../../src/judge/verdict-store.js';
import { openRunStore } from '../../src/store/run-store.js';
import { UserError } from '../../src/errors.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer } from '../helpers/fake-llm-server.js';

const KEY = 'sk-client-SECRET-abcdef123456';
let server: FakeLlmServer;
let inFlight = 0;
let maxInFlight = 0;
beforeAll(async () => {
  server = await startFakeLlmServer(() => ({ text: 'ok' }));
});
afterAll(async () => server.close());

const msg = (i: number) => [{ role: 'user' as const, content: `question ${i}` }];
const tmp = () => mkdtempSync(join(tmpdir(), 'sqlboard-client-'));

describe('LlmClient', () => {
  it('caches every response in the run store, keyed without the API key', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ text: 'cached answer', usage: { input: 1000, output: 100 } }));
    const file = join(tmp(), 'store.db');
    const store = openRunStore(file);
    const mk = (apiKey: string) =>
      new LlmClient({ provider: createOpenAiProvider({ apiKey, baseUrl: server.openaiBase }), model: 'gpt-4o', cache: new LlmCache(store), price: lookupPrice('gpt-4o') });
    const a = mk(KEY);
    const r1 = await a.call('p1', msg(1));
    expect(r1).toMatchObject({ text: 'cached answer', cached: false, attempts: 1, usage: { inputTokens: 1000, outputTokens: 100 } });
    expect(r1.costUsd).toBeCloseTo((1000 * 2.5 + 100 * 10) / 1e6, 12);
    // Another key (a rotated key, a colleague's) reuses the answer: the key is not part of the identity.
    const b = mk('sk-other-key-000000');
    const r2 = await b.call('p1', msg(1));
    expect(r2).toMatchObject({ text: 'cached answer', cached: true, costUsd: r1.costUsd });
    expect(b.stats).toMatchObject({ requests: 0, cacheHits: 1 });
    // A different prompt hash or sampling is a different call.
    await b.call('p2', msg(1));
    expect(server.seen).toHaveLength(2);
    store.close();
    for (const f of [file, `${file}-wal`]) {
      try {
        expect(readFileSync(f).toString('latin1')).not.toContain('SECRET');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
  });

  it('keeps at most -j calls in flight', async () => {
    inFlight = 0;
    maxInFlight = 0;
    server.setScript(async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 40));
      inFlight--;
      return { text: 'x' };
    });
    const c = new LlmClient({ provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }), model: 'm', concurrency: 3 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => c.call('p', msg(i))));
    expect(maxInFlight).toBe(3);
    expect(c.stats.requests).toBe(10);
  });

  it('--max-calls: stops before exceeding, with concurrent callers', async () => {
    server.seen.length = 0;
    server.setScript(async () => {
      await new Promise((r) => setTimeout(r, 20));
      return { text: 'x' };
    });
    const budget = new Budget({ maxCalls: 5 });
    const c = new LlmClient({ provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }), model: 'm', concurrency: 4, budget });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => c.call('p', msg(i))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(BudgetExceeded);
    expect(server.seen).toHaveLength(5);
    expect(budget.stopped).toBe('--max-calls 5 reached');
  });

  it('--max-cost-usd: never spends past the limit (worst case reserved per call in flight)', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ text: 'x', usage: { input: 100, output: 20 } }));
    const price = { input: 10, output: 10 };
    const budget = new Budget({ maxCostUsd: 0.005 });
    const c = new LlmClient({
      provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }),
      model: 'm',
      concurrency: 4,
      budget,
      price,
      sampling: { temperature: 0, maxOutputTokens: 100 },
    });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => c.call('p', msg(i))));
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(20);
    expect(budget.spent.usd).toBeLessThanOrEqual(0.005);
    expect(budget.spent.usd).toBeCloseTo(ok * costUsd({ inputTokens: 100, outputTokens: 20 }, price), 12);
    expect(budget.stopped).toMatch(/--max-cost-usd 0.005 reached/);
    // Once stopped, it stays stopped (no call slips in after a cheaper one finished).
    await expect(c.call('p', msg(100))).rejects.toBeInstanceOf(BudgetExceeded);
  });

  it('retries through the client and counts the attempts', async () => {
    let n = 0;
    server.setScript(() => (++n === 1 ? { status: 429, headers: { 'retry-after': '0' } } : { text: 'after retry' }));
    const c = new LlmClient({ provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }), model: 'm', sleep: async () => {} });
    const r = await c.call('p', msg(99));
    expect(r).toMatchObject({ text: 'after retry', attempts: 2 });
  });
});

describe('pricing', () => {
  it('matches dated snapshots to their family by the longest prefix', () => {
    expect(lookupPrice('gpt-4o-2024-08-06')).toEqual({ input: 2.5, output: 10 });
    expect(lookupPrice('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, output: 0.6 });
    expect(lookupPrice('my-local-model')).toBeUndefined();
  });

  it('takes overrides from a flag or a file', () => {
    expect(parsePriceFlag('2.5,10')).toEqual({ input: 2.5, output: 10 });
    expect(() => parsePriceFlag('cheap')).toThrow(UserError);
    const f = join(tmp(), 'prices.json');
    writeFileSync(f, JSON.stringify({ 'my-local-model': { input: 0, output: 0.1 } }));
    const t = readPriceFile(f);
    expect(lookupPrice('my-local-model', t)).toEqual({ input: 0, output: 0.1 });
    expect(lookupPrice('gpt-4o', t)).toEqual({ input: 2.5, output: 10 });
    writeFileSync(f, '{"m": {"input": "1"}}');
    expect(() => readPriceFile(f)).toThrow(/"m": expected/);
  });
});

describe('providers from the environment', () => {
  it('reads keys from the environment only and says which variable is missing', () => {
    expect(() => createProvider({ provider: 'openai' }, {})).toThrow(/OPENAI_API_KEY/);
    expect(() => createProvider({ provider: 'gemini' }, {})).toThrow(/GEMINI_API_KEY/);
    expect(createProvider({ provider: 'gemini' }, { GOOGLE_API_KEY: 'AIza-fallback' }).name).toBe('gemini');
    expect(createProvider({ provider: 'openai' }, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' }).baseUrl).toBe('http://127.0.0.1:1/v1');
    expect(createProvider({ provider: 'openai', baseUrl: 'http://x/v1' }, { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://y/v1' }).baseUrl).toBe('http://x/v1');
  });

  it('replay answers by request hash or by contained strings, in file order', async () => {
    const f = join(tmp(), 'replay.jsonl');
    const exact = [{ role: 'user' as const, content: 'exact request' }];
    writeFileSync(
      f,
      [
        JSON.stringify({ requestHash: replayRequestHash('m', exact), text: 'by hash', inputTokens: 5, outputTokens: 2, model: 'm-2025-01-01' }),
        JSON.stringify({ contains: ['alpha', 'beta'], text: 'by contents' }),
      ].join('\n'),
    );
    const p = createReplayProvider({ file: f });
    const req = (messages: typeof exact) => ({ model: 'm', messages, sampling: { temperature: 0, maxOutputTokens: 10 }, timeoutMs: 1000 });
    expect(await p.complete(req(exact))).toEqual({ text: 'by hash', usage: { inputTokens: 5, outputTokens: 2 }, resolvedModel: 'm-2025-01-01' });
    expect((await p.complete(req([{ role: 'user', content: 'beta and alpha' }]))).text).toBe('by contents');
    await expect(p.complete(req([{ role: 'user', content: 'gamma' }]))).rejects.toThrow(/no recorded response/);
    writeFileSync(f, '{"text": "no selector"}\n');
    expect(() => createReplayProvider({ file: f })).toThrow(/:1: neither "requestHash" nor "contains" says which request it answers; expected one JSON object per line/);
  });
});

describe('judge names', () => {
  it('are <model>-<snapshot date>', () => {
    expect(judgeName('gpt-4o-2024-08-06')).toBe('gpt-4o-2024-08-06');
    expect(judgeName('gemini-2.5-pro', { snapshot: '2025-06-17' })).toBe('gemini-2.5-pro-2025-06-17');
    expect(judgeName('gpt-4o', { resolvedModel: 'gpt-4o-2024-08-06' })).toBe('gpt-4o-2024-08-06');
    expect(judgeName('o3', { runDate: new Date('2026-11-29T12:00:00Z') })).toBe('o3-2026-11-29');
  });

  it('a date in the middle of a model id is not its snapshot: the name keeps the whole id', async () => {
    expect(isDatedModel('gpt-4o-2024-08-06')).toBe(true);
    expect(isDatedModel('claude-3-5-sonnet-20241022')).toBe(true);
    expect(isDatedModel('gpt-4o-2024-08-06-preview')).toBe(false);
    expect(isDatedModel('claude-3-5-sonnet-20241022-v2')).toBe(false);
    expect(judgeName('gpt-4o-2024-08-06-preview', { snapshot: '2025-01-15' })).toBe('gpt-4o-2024-08-06-preview-2025-01-15');
    // The client keeps the first reported version that ends in a date, the one judgeName can use:
    // a mid-id date reported first must not shadow it (the name would fall back to the run date).
    const reported = ['gpt-4o-2024-08-06-preview', 'gpt-4o-2024-11-20'];
    server.setScript(() => ({ text: 'ok', model: reported.shift() }));
    const c = new LlmClient({ provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }), model: 'gpt-4o', concurrency: 1 });
    await c.call('p', msg(101));
    expect(c.resolvedModel).toBeUndefined();
    await c.call('p', msg(102));
    expect(c.resolvedModel).toBe('gpt-4o-2024-11-20');
    expect(judgeName('gpt-4o', { resolvedModel: c.resolvedModel, runDate: new Date('2026-11-29T12:00:00Z') })).toBe('gpt-4o-2024-11-20');
  });

  it('an undated model keeps the name of its first run when re-run from the store on a later day', () => {
    const store = openRunStore(':memory:');
    const v = new VerdictStore(store);
    expect(v.nameFor('config-a', judgeName('o3', { runDate: new Date('2026-11-29T12:00:00Z') }))).toBe('o3-2026-11-29');
    expect(v.nameFor('config-a', judgeName('o3', { runDate: new Date('2026-12-03T12:00:00Z') }))).toBe('o3-2026-11-29');
    expect(v.nameFor('config-b', 'o3-2026-12-03')).toBe('o3-2026-12-03');
    store.close();
  });
});

describe('identical calls in flight', () => {
  it('are joined: one request, both callers answered', async () => {
    server.seen.length = 0;
    server.setScript(async () => {
      await new Promise((r) => setTimeout(r, 50));
      return { text: 'one answer' };
    });
    const c = new LlmClient({ provider: createOpenAiProvider({ apiKey: KEY, baseUrl: server.openaiBase }), model: 'm', concurrency: 4 });
    const [a, b] = await Promise.all([c.call('p', msg(7)), c.call('p', msg(7))]);
    expect([a.text, b.text]).toEqual(['one answer', 'one answer']);
    expect([a.cached, b.cached].sort()).toEqual([false, true]);
    expect(server.seen).toHaveLength(1);
    expect(c.stats).toMatchObject({ requests: 1, cacheHits: 1 });
  });
});
