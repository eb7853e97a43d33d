import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget, BudgetExceeded } from '../../src/llm/budget.js';
import { LlmClient } from '../../src/llm/client.js';
import { createGeminiProvider } from '../../src/llm/providers/gemini.js';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { byteCounter, tokenCounterFor } from '../../src/llm/token-count.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer, Reply } from '../helpers/fake-llm-server.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer(() => ({ text: 'ok' }));
});
afterAll(async () => server.close());

const PRICE = { input: 2, output: 8 };
const msg = (i: number) => [{ role: 'user' as const, content: `question ${i}: how many singers are there?` }];

/** The server answering `reply` to every request from now on, nothing seen yet. */
function answer(reply: Reply): void {
  server.seen.length = 0;
  server.setScript(() => reply);
}

/** A gpt-4o client at PRICE under a `maxCostUsd` budget, against the server answering `reply`. */
function cappedClient(reply: Reply, maxCostUsd: number, maxOutputTokens: number, concurrency?: number): { client: LlmClient; budget: Budget } {
  answer(reply);
  const budget = new Budget({ maxCostUsd });
  const provider = createOpenAiProvider({ apiKey: 'sk-budget-test', baseUrl: server.openaiBase });
  const client = new LlmClient({ provider, model: 'gpt-4o', sampling: { maxOutputTokens }, price: PRICE, budget, ...(concurrency ? { concurrency } : {}) });
  return { client, budget };
}

describe('budgets that hold by construction (real SDKs against 127.0.0.1)', () => {
  it.each(['openai', 'gemini'] as const)('%s: every request carries its output-token maximum', async (name) => {
    answer({ text: 'ok' });
    const provider =
      name === 'openai' ? createOpenAiProvider({ apiKey: 'sk-budget-test', baseUrl: server.openaiBase }) : createGeminiProvider({ apiKey: 'budget-test', baseUrl: server.url });
    const client = new LlmClient({ provider, model: name === 'openai' ? 'gpt-4o' : 'gemini-2.0-flash', sampling: { maxOutputTokens: 321 } });
    await client.call('p', msg(1));
    const body = JSON.parse(server.seen[0]!.body) as Record<string, unknown>;
    const max = name === 'openai' ? body.max_tokens ?? body.max_completion_tokens : (body.generationConfig as Record<string, unknown>).maxOutputTokens;
    expect(max).toBe(321);
  });

  it('a server that reports inflated usage: the cap is exceeded by no more than it billed beyond the requested maximum', async () => {
    // Bills 50k input and 100k output tokens for a 20-token question and a 500-token maximum.
    const cap = 0.05;
    const { client, budget } = cappedClient({ text: 'ok', usage: { input: 50_000, output: 100_000 }, delayMs: 50 }, cap, 500, 4);
    const settled = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => client.call('p', msg(i))));
    const made = settled.filter((s) => s.status === 'fulfilled').length;
    expect(settled.filter((s) => s.status === 'rejected').every((s) => (s as PromiseRejectedResult).reason instanceof BudgetExceeded)).toBe(true);
    expect(made).toBe(server.seen.length);
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(30);
    // What was admitted fitted the cap on its worst case; everything above is the server's overbilling.
    expect(client.stats.reservedUsd).toBeLessThanOrEqual(cap);
    const billed = made * ((50_000 * 2 + 100_000 * 8) / 1e6);
    expect(budget.spent.usd).toBeCloseTo(billed, 9);
    expect(client.stats.billedBeyondWorstUsd).toBeCloseTo(billed - client.stats.reservedUsd, 9);
    expect(budget.spent.usd - cap).toBeLessThanOrEqual(client.stats.billedBeyondWorstUsd + 1e-12);
    // Reconciled after each call: once the bill passed the cap, nothing more was admitted.
    expect(budget.stopped).toMatch(/--max-cost-usd 0.05 reached/);
  });

  it('a 60,000-character CJK prompt is counted with the model tokenizer, not 3 characters a token: the call is refused', async () => {
    const cjk = '数据库中有多少位歌手'.repeat(6000);
    const count = await tokenCounterFor('openai', 'gpt-4o');
    const tokens = count({ messages: [{ content: cjk }] });
    // The old estimate (60,000 / 3 = 20,000 tokens) was a third of the truth.
    expect(tokens).toBeGreaterThan(30_000);
    expect(byteCounter({ messages: [{ content: cjk }] })).toBeGreaterThanOrEqual(tokens);
    // $0.06 fits the old estimate (20k × $2/M + 100 × $8/M = $0.0408) but not the real count (> 30k tokens: > $0.06).
    const { client } = cappedClient({ text: 'ok', usage: { input: 60_000, output: 10 } }, 0.06, 100);
    await expect(client.call('p', [{ role: 'user', content: cjk }])).rejects.toBeInstanceOf(BudgetExceeded);
    expect(server.seen).toHaveLength(0);
  });
});
