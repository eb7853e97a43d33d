import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { startFakeLlmServer, type FakeLlmServer } from './helpers/fake-llm-server.js';
import { routeJudgeArgs, routeScript, writeRouteFiles } from './judge/spider-fixture.js';

let server: FakeLlmServer;
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-judge-cap-'));
const files = writeRouteFiles(dir);
beforeAll(async () => {
  server = await startFakeLlmServer(routeScript);
});
afterAll(async () => server.close());

describe('judge without --max-cost-usd (issue 30, item 12)', () => {
  it('says nothing about a cap that was never set, though the calls cost money', async () => {
    const r = await runCli(routeJudgeArgs(files, server.openaiBase, join(dir, 'store.db'), ['--json', '-j', '2']), { env: { OPENAI_API_KEY: 'sk-test-0123456789' } });
    expect(r.stderr).not.toMatch(/internal error/);
    const out = JSON.parse(r.stdout) as { notes?: string[]; systems: { costUsd?: number }[] };
    expect(JSON.stringify(out)).toMatch(/"costUsd":\s*0\.\d*[1-9]/);
    expect(`${r.stdout}\n${r.stderr}`).not.toMatch(/beyond the worst case|the cap held/);
  });
});
