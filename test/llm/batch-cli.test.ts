import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readItems } from '../../src/benchmark/items.js';
import { maxLineWidth, runCli, runCliAndKill } from '../helpers/cli.js';
import { startFakeBatchServer } from '../helpers/fake-batch-server.js';
import type { FakeBatchServer } from '../helpers/fake-batch-server.js';
import { DB_ROOT, routeJudgeArgs, routeScript, writeRouteFiles } from '../judge/spider-fixture.js';
import { writeLiveSet } from '../validate/live-set-fixture.js';

const KEY = 'sk-batchcli-SECRET-0123456789';
let server: FakeBatchServer;
const dir = mkdtempSync(join(tmpdir(), 'sqlboard-batch-cli-'));
const { questions, preds } = writeRouteFiles(dir);

beforeAll(async () => {
  server = await startFakeBatchServer(routeScript);
});
afterAll(async () => server.close());

const args = (store: string, items: string, extra: string[] = []): string[] => routeJudgeArgs({ questions, preds }, server.openaiBase, store, ['--items', items, ...extra]);
const env = { OPENAI_API_KEY: KEY };
const BATCH = ['--batch', '--batch-poll', '0.01'];

/** An item without what only the transport changes (usage, latency, cost). */
const verdict = (r: Record<string, unknown>) => {
  const { calls: _c, cachedCalls: _cc, inputTokens: _i, outputTokens: _o, costUsd: _u, latencyMs: _l, ...rest } = r;
  return rest;
};

describe('sqlboard judge --batch (CLI, real SDK against a local batch server)', () => {
  const onlineItems = join(dir, 'online.jsonl');

  it('writes the same items as an online run with the same answers', async () => {
    // One route task ends unscored (the Prover answers prose twice): a complete run exits 3 (partial) for it.
    const on = await runCli(args(join(dir, 'online.db'), onlineItems), { env });
    expect(on.code).toBe(3);
    expect(on.stderr).toMatch(/partial result: 1 of 8 items unscored/);
    server.batches.length = 0;
    const b = await runCli(args(join(dir, 'batch.db'), join(dir, 'batch.jsonl'), BATCH), { env });
    expect(b.stderr).toMatch(/batch: 2 wave\(s\), 2 batch\(es\) submitted \(11 requests, 0 resubmitted\), 0 collected from earlier runs' batches, 11 answered/);
    expect(b.code).toBe(3);
    expect(b.stderr).toMatch(/partial result: 1 of 8 items unscored/);
    expect(readItems(join(dir, 'batch.jsonl')).map(verdict)).toEqual(readItems(onlineItems).map(verdict));
    expect(b.stdout + b.stderr).not.toContain('SECRET');
  }, 300_000);

  it('kill -9 between submission and completion: the re-run polls the recorded batch, submits nothing twice, and ends as an online run', async () => {
    server.batches.length = 0;
    server.setPlan(() => ({ polls: 1_000_000 }));
    const store = join(dir, 'killed.db');
    const items = join(dir, 'killed.jsonl');
    const signal = await runCliAndKill(args(store, items, BATCH), () => server.batches.length === 1 && server.batches[0].polls >= 2, { env });
    expect(signal).toBe('SIGKILL');
    expect(server.batches).toHaveLength(1);
    // The provider finishes the batch while nobody is watching.
    server.batches[0].plan.polls = 0;
    server.setPlan(() => ({}));
    const r = await runCli(args(store, items, BATCH), { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/partial result: 1 of 8 items unscored/);
    expect(r.stderr, r.stderr).toMatch(/7 collected from earlier runs' batches/);
    expect(server.batches.map((b) => b.lines.length)).toEqual([7, 4]);
    expect(readItems(items).map(verdict)).toEqual(readItems(onlineItems).map(verdict));

    const st = await runCli(['batch', 'status', '--store', store, '--json']);
    expect(st.code).toBe(0);
    const out = JSON.parse(st.stdout) as { batches: { id: string; state: string; collected: boolean; total: number }[] };
    expect(out.batches.map((b) => [b.id, b.state, b.collected, b.total])).toEqual(server.batches.map((b) => [b.id, 'completed', true, b.lines.length]));
    // The table lists the same batches within 100 columns (stdout is a pipe).
    const table = await runCli(['batch', 'status', '--store', store]);
    expect(table.code).toBe(0);
    expect(table.stdout.match(/completed/g)?.length).toBeGreaterThanOrEqual(2);
    expect(maxLineWidth(table.stdout)).toBeLessThanOrEqual(100);
  }, 300_000);

  it('--batch-wait none submits wave 1 and exits 3 (partial, 7 items waiting); the same command later collects them', async () => {
    server.batches.length = 0;
    const store = join(dir, 'none.db');
    const items = join(dir, 'none.jsonl');
    const first = await runCli(args(store, items, [...BATCH, '--batch-wait', 'none']), { env });
    expect(first.code).toBe(3);
    expect(first.stderr).toMatch(/7 items wait for submitted batches/);
    expect(first.stderr).toMatch(/partial result: 7 of 8 items unscored/);
    expect(server.batches).toHaveLength(1);
    const second = await runCli(args(store, items, BATCH), { env });
    expect(second.stderr).toMatch(/partial result: 1 of 8 items unscored/);
    expect(server.batches).toHaveLength(2);
    expect(readItems(items).map(verdict)).toEqual(readItems(onlineItems).map(verdict));
  }, 300_000);

  it('--batch with --provider replay or without a usable combination is a user error', async () => {
    const r = await runCli(['judge', '--questions', questions, '--db-root', DB_ROOT, '--system', `routes=${preds}`, '--provider', 'replay', '--replay', preds, '--model', 'x', '--batch', '--store', join(dir, 'r.db')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--batch needs a live provider/);
    const w = await runCli(args(join(dir, 'w.db'), join(dir, 'w.jsonl'), ['--batch-wait', 'none']), { env });
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/--batch-wait and --batch-fallback apply only with --batch/);
  }, 300_000);
});

describe('sqlboard validate --provider openai --batch (live judge through the batch engine)', () => {
  it('judges the set through batches and joins the human labels as the online judge does', async () => {
    const setFile = writeLiveSet(join(dir, 'live-set.jsonl'));
    server.batches.length = 0;
    const r = await runCli(
      ['validate', '--set', setFile, '--provider', 'openai', '--model', 'gpt-4o', '--base-url', server.openaiBase, '--db-root', DB_ROOT, '--store', join(dir, 'validate.db'), '--iterations', '50', '--json', ...BATCH],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout).judges[0];
    expect(j.subsets.all).toMatchObject({ n: 3, items: 3 });
    // match → the Refuter upholds (1); the France question → the Prover says yes, the Refuter
    // overturns (0) where humans said correct: two waves, the second holding that Refuter.
    expect(j.subsets.all.confusion).toEqual({ tp: 1, fp: 0, fn: 1, tn: 1 });
    expect(server.batches.map((b) => b.lines.length)).toEqual([2, 1]);
  }, 300_000);
});
