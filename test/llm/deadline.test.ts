import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiProvider } from '../../src/llm/providers/gemini.js';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { ProviderError } from '../../src/llm/providers/types.js';
import type { LlmProvider } from '../../src/llm/providers/types.js';
import { startHostileServer, type HostileServer } from './hostile-servers.js';

const req = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }], sampling: { temperature: 0, maxOutputTokens: 16 } };

function providers(url: string, maxResponseBytes?: number): [string, LlmProvider][] {
  return [
    ['openai', createOpenAiProvider({ apiKey: 'sk-deadline-test', baseUrl: `${url}/v1`, maxResponseBytes })],
    ['gemini', createGeminiProvider({ apiKey: 'deadline-test', baseUrl: url, maxResponseBytes })],
  ];
}

async function failure(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ProviderError) return e;
    throw e;
  }
  throw new Error('the call succeeded');
}

describe('one deadline per call, headers and body (real SDKs against 127.0.0.1)', () => {
  let slow: HostileServer;
  beforeAll(async () => {
    slow = await startHostileServer('slow-body');
  });
  afterAll(async () => slow.close());

  it.each(['openai', 'gemini'])('%s: headers at once, then one byte a second: the call ends at the deadline, a timeout', async (name) => {
    const p = providers(slow.url).find(([n]) => n === name)![1];
    const e = await failure(p.complete({ ...req, timeoutMs: 1500 }));
    expect(e.kind).toBe('timeout');
    expect(e.message).toMatch(/no complete response within 1500 ms/);
    // The body needs minutes at one byte a second: fewer than 40 bytes sent shows the call gave up
    // long before it (wall-clock figures belong in npm run bench, not here).
    expect(slow.bytesSent()).toBeLessThan(40);
  });
});

describe('a cap on response bytes (real SDKs against 127.0.0.1)', () => {
  let endless: HostileServer;
  beforeAll(async () => {
    endless = await startHostileServer('endless-body');
  });
  afterAll(async () => endless.close());

  it.each(['openai', 'gemini'])('%s: an endless chunked body is cut at the cap, not read for ever', async (name) => {
    const cap = 1024 * 1024;
    const p = providers(endless.url, cap).find(([n]) => n === name)![1];
    const before = endless.bytesSent();
    const e = await failure(p.complete({ ...req, timeoutMs: 60_000 }));
    expect(e.kind).toBe('bad-response');
    expect(e.message).toMatch(/exceeded 1048576 bytes/);
    // What the server managed to push past the cap sits in socket buffers, a few MB at most.
    expect(endless.bytesSent() - before).toBeLessThan(cap + 16 * 1024 * 1024);
  });
});
