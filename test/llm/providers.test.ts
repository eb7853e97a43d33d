import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { createGeminiProvider } from '../../src/llm/providers/gemini.js';
import { ProviderError, parseRetryAfter, redactUrl } from '../../src/llm/providers/types.js';
import type { LlmProvider, LlmRequest } from '../../src/llm/providers/types.js';
import { withRetries } from '../../src/llm/retry.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer, Reply } from '../helpers/fake-llm-server.js';

const KEY_OPENAI = 'sk-test-SECRET-openai-0123456789';
const KEY_GEMINI = 'AIzaTEST-SECRET-gemini-0123456789';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer(() => ({ text: 'hello' }));
});
afterAll(async () => server.close());

const req = (timeoutMs = 2000): LlmRequest => ({
  model: 'm-1',
  messages: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: 'hi' },
  ],
  sampling: { temperature: 0, maxOutputTokens: 64 },
  timeoutMs,
});

/** Replies from a list, one per request, the last repeating. */
function sequence(replies: Reply[]): () => Reply {
  let i = 0;
  return () => replies[Math.min(i++, replies.length - 1)];
}

const fastPolicy = { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5000 };

function providers(): [string, () => LlmProvider][] {
  return [
    ['openai', () => createOpenAiProvider({ apiKey: KEY_OPENAI, baseUrl: server.openaiBase })],
    ['gemini', () => createGeminiProvider({ apiKey: KEY_GEMINI, baseUrl: server.url })],
  ];
}

describe.each(providers())('%s provider against a local HTTP server', (name, make) => {
  it('returns the text, the token usage and the reported model version', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ text: '{"ok": true}', usage: { input: 123, output: 45 }, model: 'm-1-2025-01-31' }));
    const r = await make().complete(req());
    expect(r.text).toBe('{"ok": true}');
    expect(r.usage).toEqual({ inputTokens: 123, outputTokens: 45 });
    expect(r.resolvedModel).toBe('m-1-2025-01-31');
    const seen = server.seen[0];
    expect(seen.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hi' },
    ]);
    if (name === 'openai') {
      expect(seen.path).toBe('/v1/chat/completions');
      expect(seen.headers.authorization).toBe(`Bearer ${KEY_OPENAI}`);
      // An OpenAI-compatible server gets max_tokens, which vLLM, Ollama and llama.cpp all know.
      expect(JSON.parse(seen.body)).toMatchObject({ model: 'm-1', temperature: 0, max_tokens: 64 });
    } else {
      expect(seen.path).toBe('/v1beta/models/m-1:generateContent');
      // The key goes in a header, never in the URL (URLs end up in logs).
      expect(seen.headers['x-goog-api-key']).toBe(KEY_GEMINI);
      expect(seen.path).not.toContain('SECRET');
      expect(JSON.parse(seen.body)).toMatchObject({ generationConfig: { temperature: 0, maxOutputTokens: 64 } });
    }
  });

  it('makes exactly one request per call: the SDK does not retry on its own', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ status: 500 }));
    const e = await make().complete(req()).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ProviderError);
    expect((e as ProviderError).kind).toBe('server');
    expect((e as ProviderError).status).toBe(500);
    expect(server.seen).toHaveLength(1);
  });

  it('429 with Retry-After: waits what the server asks, then succeeds', async () => {
    server.seen.length = 0;
    server.setScript(sequence([{ status: 429, headers: { 'retry-after': '2' } }, { text: 'done' }]));
    const waits: number[] = [];
    const r = await withRetries(() => make().complete(req()), fastPolicy, async (ms) => void waits.push(ms));
    expect(r.value.text).toBe('done');
    expect(r.attempts).toBe(2);
    expect(waits).toEqual([2000]);
    expect(server.seen).toHaveLength(2);
  });

  it('500s: backs off (bounded) and retries until an answer', async () => {
    server.seen.length = 0;
    server.setScript(sequence([{ status: 500 }, { status: 503 }, { text: 'ok' }]));
    const waits: number[] = [];
    const r = await withRetries(() => make().complete(req()), fastPolicy, async (ms) => void waits.push(ms));
    expect(r.value.text).toBe('ok');
    expect(r.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    for (const w of waits) expect(w).toBeLessThanOrEqual(fastPolicy.maxDelayMs);
  });

  it('gives up after maxAttempts and says so', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ status: 502 }));
    const e = await withRetries(() => make().complete(req()), fastPolicy, async () => {}).catch((x: unknown) => x);
    expect((e as ProviderError).message).toMatch(/gave up after 4 attempts/);
    expect(server.seen).toHaveLength(4);
  });

  it('a malformed JSON body is a bad response, retried', async () => {
    server.seen.length = 0;
    server.setScript(sequence([{ raw: '{"choices": [ this is not json' }, { text: 'fine' }]));
    const first = await make().complete(req()).catch((x: unknown) => x);
    expect(first).toBeInstanceOf(ProviderError);
    expect((first as ProviderError).kind).toBe('bad-response');
    const r = await withRetries(() => make().complete(req()), fastPolicy, async () => {});
    expect(r.value.text).toBe('fine');
  });

  it('a reply slower than the per-call timeout is a timeout, retried', async () => {
    server.seen.length = 0;
    // The late reply would come long after the 300 ms limit; how long the call took is not asserted
    // (it depends on the machine's load; the timing lives in npm run bench): the call must fail as a
    // timeout, and the server must see the client close the request before it replied.
    server.setScript(sequence([{ text: 'late', delayMs: 20_000 }, { text: 'quick' }]));
    const first = await make().complete(req(300)).catch((x: unknown) => x);
    expect(first).toBeInstanceOf(ProviderError);
    expect((first as ProviderError).kind).toBe('timeout');
    await vi.waitFor(() => expect(server.seen[0]!.closedBeforeReply).toBe(true), { timeout: 15_000, interval: 20 });
    const r = await withRetries(() => make().complete(req(300)), fastPolicy, async () => {});
    expect(r.value.text).toBe('quick');
  });

  it('a 400 is a client error and is not retried', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ status: 400 }));
    const e = await withRetries(() => make().complete(req()), fastPolicy, async () => {}).catch((x: unknown) => x);
    expect((e as ProviderError).kind).toBe('client');
    expect(server.seen).toHaveLength(1);
  });

  it('a Retry-After longer than allowed fails instead of hanging', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const e = await withRetries(() => make().complete(req()), fastPolicy, async () => {}).catch((x: unknown) => x);
    expect((e as ProviderError).message).toMatch(/asked to wait 3600 s/);
    expect(server.seen).toHaveLength(1);
  });

  it('error messages never contain the API key', async () => {
    server.setScript(() => ({ status: 401 }));
    const e = (await make().complete(req()).catch((x: unknown) => x)) as ProviderError;
    expect(e.status).toBe(401);
    expect(String(e.message) + String(e.stack)).not.toContain('SECRET');
  });
});

describe('reasoning models and truncated answers', () => {
  it('OpenAI reasoning models get max_completion_tokens and no temperature', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ text: 'x' }));
    const p = createOpenAiProvider({ apiKey: KEY_OPENAI, baseUrl: server.openaiBase });
    await p.complete({ ...req(), model: 'o3' });
    const body = JSON.parse(server.seen[0].body) as Record<string, unknown>;
    expect(body.max_completion_tokens).toBe(64);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('max_tokens');
  });

  it.each(providers())('%s: an answer cut at the token limit is returned (empty), marked truncated, not retried', async (_n, make) => {
    server.seen.length = 0;
    server.setScript(() => ({ text: '', truncated: true }));
    const r = await make().complete(req());
    expect(r).toMatchObject({ text: '', truncated: true });
    expect(server.seen).toHaveLength(1);
  });

  it('gemini: a blocked prompt is a client error (no retry)', async () => {
    server.setScript(() => ({ raw: JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' } }) }));
    const e = (await createGeminiProvider({ apiKey: KEY_GEMINI, baseUrl: server.url }).complete(req()).catch((x: unknown) => x)) as ProviderError;
    expect(e.kind).toBe('client');
    expect(e.message).toMatch(/blocked the prompt \(SAFETY\)/);
  });
});

describe('gemini specifics', () => {
  it("honours Gemini's RetryInfo retryDelay in the error body when there is no header", async () => {
    server.seen.length = 0;
    const body = JSON.stringify({
      error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }] },
    });
    server.setScript(sequence([{ status: 429, raw: body }, { text: 'ok' }]));
    const waits: number[] = [];
    const p = createGeminiProvider({ apiKey: KEY_GEMINI, baseUrl: server.url });
    const r = await withRetries(() => p.complete(req()), fastPolicy, async (ms) => void waits.push(ms));
    expect(r.value.text).toBe('ok');
    expect(waits).toEqual([3000]);
  });

  it('takes another API version', async () => {
    server.seen.length = 0;
    server.setScript(() => ({ text: 'v1' }));
    await createGeminiProvider({ apiKey: KEY_GEMINI, baseUrl: server.url, apiVersion: 'v1' }).complete(req());
    expect(server.seen[0].path).toBe('/v1/models/m-1:generateContent');
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('endpoints as shown and stored', () => {
  it('lose credentials and key-like query parameters', () => {
    expect(redactUrl('https://user:SECRET@host.example/v1')).toBe('https://host.example/v1');
    expect(redactUrl('https://x.openai.azure.com/openai?api-version=2024-06-01&api_key=SECRET')).toBe('https://x.openai.azure.com/openai?api-version=2024-06-01');
    expect(redactUrl('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
    expect(redactUrl('https://generativelanguage.googleapis.com')).toBe('https://generativelanguage.googleapis.com');
    expect(createOpenAiProvider({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1?key=SECRET' }).baseUrl).toBe('http://127.0.0.1:1/v1');
  });
});
