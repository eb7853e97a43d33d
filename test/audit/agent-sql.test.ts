import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { extractSql, generateSql } from '../../src/audit/agent-sql.js';
import { LlmClient } from '../../src/llm/client.js';
import { loadPrompt } from '../../src/judge/prompts.js';
import { createOpenAiProvider } from '../../src/llm/providers/openai.js';
import { createSchemaSource } from '../../src/judge/schema-text.js';
import { ExecutionEngine } from '../../src/execution/engine.js';
import { birdEqual } from '../../src/execution/compare-bird.js';
import { startFakeLlmServer } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer } from '../helpers/fake-llm-server.js';
import { SPIDER } from '../helpers/cli.js';

let server: FakeLlmServer;
beforeAll(async () => {
  server = await startFakeLlmServer(() => ({ text: 'Here it is:\n```sql\nSELECT count(*) FROM singer;\n```' }));
});
afterAll(async () => server.close());

describe('SQL-generating agents (prompts/agent.md)', () => {
  it('takes the SQL out of fenced or chatty answers', () => {
    expect(extractSql('SELECT 1;')).toBe('SELECT 1');
    expect(extractSql('```\nSELECT a FROM t\n```')).toBe('SELECT a FROM t');
    expect(extractSql('The query is: WITH x AS (SELECT 1) SELECT * FROM x;')).toBe('WITH x AS (SELECT 1) SELECT * FROM x');
  });

  it('asks with schema, question and evidence, and its SQL runs on the real database', async () => {
    const dbRoot = join(SPIDER, 'database');
    const client = new LlmClient({ provider: createOpenAiProvider({ apiKey: 'sk-agent', baseUrl: server.openaiBase }), model: 'gpt-4o' });
    const schema = createSchemaSource(dbRoot)('concert_singer');
    const r = await generateSql(client, loadPrompt('agent'), { schema, question: 'How many singers do we have?', evidence: '' });
    expect(r.sql).toBe('SELECT count(*) FROM singer');
    expect(r.usage).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 20 });
    const user = server.seen[0].messages[1].content;
    expect(user).toContain('CREATE TABLE "singer"');
    expect(user).toContain('## Question\nHow many singers do we have?');
    expect(user).toContain('## Evidence (external knowledge)\n(none)');
    const engine = new ExecutionEngine({ dbRoot, workers: 1 });
    try {
      const [gold, pred] = await engine.run([
        { dbId: 'concert_singer', sql: 'SELECT count(*) FROM singer' },
        { dbId: 'concert_singer', sql: r.sql },
      ]);
      expect(birdEqual(gold, pred)).toBe(true);
    } finally {
      await engine.close();
    }
  });
});
