import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { runCli } from '../helpers/cli.js';
import { startFakeLlmServer, stageOf } from '../helpers/fake-llm-server.js';
import type { FakeLlmServer, Reply, SeenRequest } from '../helpers/fake-llm-server.js';
import { DB_ROOT, DEV_JSON, ROUTE_CASES } from '../judge/spider-fixture.js';

/**
 * Keys redacted by value, whatever their shape: a server that echoes the key it was sent in
 * error bodies, in the answer text and in the model name must not get it into stdout, stderr,
 * the items file or any row of the run store.
 */
const KEYS = {
  plain: 'local-SECRET123',
  odd: 'odd key.*+?^${}()|[] "quoted" \\ end',
};

let server: FakeLlmServer;
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-odd-key-'));
const questions = join(dir, 'questions.json');
const preds = join(dir, 'preds.sql');
const CASES = ROUTE_CASES.slice(0, 4);

/** The key the request carried (OpenAI: Authorization: Bearer; Gemini: x-goog-api-key). */
function keyOf(req: SeenRequest): string {
  const h = req.headers['x-goog-api-key'] ?? String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  return Array.isArray(h) ? h[0]! : h;
}

/** Every first attempt is a 500 quoting the key; the retry answers with the key in the text and the model name. */
function echoingScript(req: SeenRequest): Reply {
  const key = keyOf(req);
  const first = !server.seen.slice(0, -1).some((s) => s.body === req.body);
  if (first) return { status: 500, raw: JSON.stringify({ error: { message: `internal error for key ${key}`, code: 500 } }) };
  const stage = stageOf(req);
  const text =
    stage === 'prover'
      ? JSON.stringify({ expectedAnswer: key, sqlDescription: key, reason: `you sent ${key}`, verdict: true })
      : JSON.stringify({ reason: `you sent ${key}`, overturn: false, ambiguity: 'none', goldCorrect: true });
  return { text: `${text}\n(key: ${key})`, model: `gpt-4o-2024-08-06-${key}` };
}

beforeAll(async () => {
  server = await startFakeLlmServer(echoingScript);
  const dev = JSON.parse(readFileSync(DEV_JSON, 'utf8')) as unknown[];
  writeFileSync(questions, JSON.stringify(CASES.map((c) => dev[Number(c.taskId)])));
  writeFileSync(preds, CASES.map((c) => `${c.pred}\tconcert_singer`).join('\n') + '\n');
});
afterAll(async () => server.close());

function storeText(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    return tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

function forms(key: string): string[] {
  return [key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), 'SECRET123', '"quoted"'];
}

describe.each([
  ['openai', 'plain', { OPENAI_API_KEY: KEYS.plain }],
  ['openai', 'odd', { OPENAI_API_KEY: KEYS.odd }],
  ['gemini', 'odd', { GEMINI_API_KEY: KEYS.odd }],
] as const)('an odd-shaped key server (%s, %s key)', (provider, which, env) => {
  const key = KEYS[which];
  const store = join(dir, `${provider}-${which}.db`);
  const items = join(dir, `${provider}-${which}.jsonl`);
  const args = (extra: string[], storeFile = store): string[] => [
    'judge',
    '--questions', questions,
    '--db-root', DB_ROOT,
    '--system', `odd=${preds}`,
    '--provider', provider,
    '--model', provider === 'openai' ? 'gpt-4o' : 'gemini-2.0-flash',
    '--base-url', provider === 'openai' ? server.openaiBase : server.url,
    '--store', storeFile,
    '--items', items,
    '--max-attempts', '2',
    '--workers', '2',
    ...extra,
  ];

  it('the key reaches the server but no output, log line, item or store row', async () => {
    server.seen.length = 0;
    const table = await runCli(args([]), { env });
    expect(table.code).toBe(0);
    const json = await runCli(args(['--json']), { env });
    expect(json.code).toBe(0);
    // The server really saw and echoed the key (the retries answered with it).
    expect(server.seen.some((s) => keyOf(s) === key)).toBe(true);
    expect(JSON.parse(json.stdout).systems[0].correct).toBeGreaterThan(0);
    const outputs = [table.stdout, table.stderr, json.stdout, json.stderr, readFileSync(items, 'utf8'), storeText(store)];
    for (const f of [store, `${store}-wal`]) if (existsSync(f)) outputs.push(readFileSync(f).toString('latin1'));
    for (const text of outputs) for (const f of forms(key)) expect(text).not.toContain(f);
    expect(readFileSync(items, 'utf8')).toContain('[redacted]');
  });

  it('a 401 that quotes the key stops the run with a user error that does not', async () => {
    server.setScript((req) => ({ status: 401, raw: JSON.stringify({ error: { message: `key ${keyOf(req)} is not valid` } }) }));
    try {
      const r = await runCli(args([], join(dir, `${provider}-${which}-401.db`)), { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refused the credentials/);
      expect(r.stderr).toContain('[redacted]');
      for (const f of forms(key)) expect(r.stderr + r.stdout).not.toContain(f);
    } finally {
      server.setScript(echoingScript);
    }
  });
});
