import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { audit } from '../src/api/audit.js';
import { judge } from '../src/api/judge.js';
import { leaderboard } from '../src/api/leaderboard.js';
import { resolveOptions } from '../src/api/option-table.js';
import { stats } from '../src/api/stats.js';
import { validate } from '../src/api/validate.js';
import { UserError } from '../src/errors.js';
import { runCli, SPIDER } from './helpers/cli.js';

/*
 * judge, audit, validate and stats make their option checks through their tables' rules
 * (resolveOptions), before any file is read: the paths below do not exist, so a check that ran
 * after the work started would fail on the file instead. When two options are wrong, the one
 * the command always reported first still comes first.
 */

const NOWHERE = '/nonexistent/sqlboard';

/** `run` fails with exactly `message`, as a UserError (exit 2 on the CLI). */
async function refused(run: () => unknown, message: string): Promise<void> {
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(UserError);
  expect((error as Error).message).toBe(message);
}

describe('judge: the rules of JUDGE_OPTIONS and the shared LLM/batch tables', () => {
  const base = { questions: `${NOWHERE}/q.json`, dbRoot: NOWHERE, system: [`s=${NOWHERE}/p.sql`], provider: 'openai' as const, model: 'm' };
  it('refuses each wrong value or combination before reading a file', async () => {
    await refused(() => judge({ ...base, timeout: 0 }), '--timeout must be a positive number of seconds');
    await refused(() => judge({ ...base, maxAttempts: 0 }), '--max-attempts must be a whole number ≥ 1 (got 0)');
    await refused(() => judge({ ...base, maxOutputTokens: 0.5 }), '--max-output-tokens must be a whole number ≥ 1 (got 0.5)');
    await refused(() => judge({ ...base, previewRows: -1 }), '--preview-rows must be a whole number ≥ 0 (got -1)');
    await refused(() => judge({ ...base, maxCostUsd: -0.5 }), '--max-cost-usd must be a number ≥ 0 (got -0.5)');
    await refused(() => judge({ ...base, batchPoll: 0, batch: true }), '--batch-poll must be a positive number of seconds');
    await refused(() => judge({ ...base, batchWait: 'none' }), '--batch-wait and --batch-fallback apply only with --batch');
    await refused(() => judge({ ...base, provider: 'replay', batch: true }), '--batch needs a live provider: --provider replay answers from a file and has no batch engine.');
    await refused(() => judge({ ...base, batch: true, record: 'r.jsonl' }), '--record replays every call online from the cache; run it after the batch run, without --batch');
  });
  it('reports the first of two wrong options in the order it always did', async () => {
    // The shared LLM options first, then judge's own, then the batch options.
    await refused(() => judge({ ...base, timeout: 0, concurrency: 0 }), '--concurrency must be a whole number ≥ 1 (got 0)');
    await refused(() => judge({ ...base, timeout: 0, maxOutputTokens: 0 }), '--max-output-tokens must be a whole number ≥ 1 (got 0)');
    await refused(() => judge({ ...base, batchWait: 'none', batchPoll: -1 }), '--batch-poll must be a positive number of seconds');
  });
  it('on the command line: exit 2 with the message', async () => {
    const r = await runCli(['judge', '--questions', join(SPIDER, 'dev.json'), '--db-root', join(SPIDER, 'database'), '--system', `s=${join(SPIDER, 'dev.json')}`, '--provider', 'openai', '--model', 'm', '--timeout', '0', '--store', join(mkdtempSync(join(tmpdir(), 'sqlboard-rules-')), 's.db')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--timeout must be a positive number of seconds/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  }, 300_000);
});

describe('audit: the rules of AUDIT_OPTIONS', () => {
  const base = { questions: `${NOWHERE}/q.json`, dbRoot: NOWHERE, agent: ['a=x.sql', 'b=y.sql', 'c=z.sql'] };
  it('refuses each wrong value or combination before reading a file', async () => {
    await refused(() => audit({ ...base, agent: ['a=x.sql'], llmAgent: ['g=openai:m'] }), 'the audit needs at least 3 agents (got 2); repeat --agent NAME=FILE or --llm-agent NAME=PROVIDER:MODEL');
    await refused(() => audit({ ...base, compareFlags: 'f.csv' }), '--compare-flags needs --labels (it is scored on the labelled sample)');
    await refused(() => audit({ ...base, batch: true }), '--batch applies to --llm-agent agents; this audit has none');
    await refused(() => audit({ ...base, seed: 1.5 }), '--seed must be a whole number (got 1.5)');
    await refused(() => audit({ ...base, k: 0 }), '--k must be a whole number ≥ 1 (got 0)');
    await refused(() => audit({ ...base, maxCalls: -1 }), '--max-calls must be a whole number ≥ 0 (got -1)');
  });
  it('reports the first of two wrong options in the order it always did', async () => {
    await refused(() => audit({ ...base, agent: ['a=x.sql'], concurrency: 0 }), 'the audit needs at least 3 agents (got 1); repeat --agent NAME=FILE or --llm-agent NAME=PROVIDER:MODEL');
    await refused(() => audit({ ...base, seed: 1.5, concurrency: 0 }), '--concurrency must be a whole number ≥ 1 (got 0)');
    await refused(() => audit({ ...base, k: 0, batch: true }), '--batch applies to --llm-agent agents; this audit has none');
    // A malformed agent spec is still reported before any rule.
    await refused(() => audit({ ...base, agent: ['a=x.sql', 'a=y.sql'], concurrency: 0 }), 'two agents are named "a"; give each --agent a distinct NAME=');
  });
  it('on the command line: exit 2 with the message', async () => {
    const preds = join(SPIDER, 'dev.json');
    const r = await runCli(['audit', '--questions', preds, '--db-root', join(SPIDER, 'database'), '--agent', `a=${preds}`, `b=${preds}`, `c=${preds}`, '--compare-flags', preds, '--store', join(mkdtempSync(join(tmpdir(), 'sqlboard-rules-')), 's.db')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--compare-flags needs --labels/);
  }, 300_000);
});

describe('validate: the rules of VALIDATE_OPTIONS', () => {
  const base = { set: [`${NOWHERE}/set.jsonl`], judge: [`j=${NOWHERE}/j.jsonl`] };
  it('refuses each wrong value or combination before reading a file', async () => {
    await refused(() => validate({ set: base.set }), 'name at least one --judge NAME=SOURCE (or a live judge with --provider)');
    await refused(() => validate({ ...base, provider: 'openai', model: 'm' }), "--provider needs --model and --db-root (the databases of the sets' items)");
    await refused(() => validate({ ...base, batch: true }), '--batch applies to a live judge (--provider); recorded judges are only read');
    await refused(() => validate({ ...base, iterations: 0 }), '--iterations must be a whole number ≥ 1 (got 0)');
    await refused(() => validate({ ...base, seed: 0.5 }), '--seed must be a whole number (got 0.5)');
    await refused(() => validate({ ...base, provider: 'openai', model: 'm', dbRoot: NOWHERE, batch: true, batchPoll: 0 }), '--batch-poll must be a positive number of seconds');
  });
  it('reports the first of two wrong options in the order it always did', async () => {
    await refused(() => validate({ ...base, seed: 0.5, iterations: 0 }), '--iterations must be a whole number ≥ 1 (got 0)');
    await refused(() => validate({ set: base.set, concurrency: 0 }), 'name at least one --judge NAME=SOURCE (or a live judge with --provider)');
    await refused(() => validate({ ...base, batch: true, concurrency: 0 }), '--concurrency must be a whole number ≥ 1 (got 0)');
    await refused(() => validate({ ...base, provider: 'openai', batchWait: 'none' }), "--provider needs --model and --db-root (the databases of the sets' items)");
  });
  it('on the command line: exit 2 with the message', async () => {
    const set = join(SPIDER, 'dev.json');
    const r = await runCli(['validate', '--set', set, '--provider', 'openai', '--model', 'm']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--provider needs --model and --db-root/);
  }, 300_000);
});

describe('leaderboard: the rules of LEADERBOARD_OPTIONS', () => {
  const items = [`${NOWHERE}/a.jsonl`];
  const board = `${NOWHERE}/board.csv`;
  it('refuses each wrong value or combination before reading a file', async () => {
    await refused(() => leaderboard({}), 'give per-item verdict files (from `score --items`), or --board FILE');
    await refused(() => leaderboard({ items, n: 10 }), '--n is for --board; with verdict files N is the number of tasks');
    await refused(() => leaderboard({ items, seed: 0.5 }), '--seed must be a whole number (got 0.5)');
    await refused(() => leaderboard({ board, n: 1534 }), '--board needs --n N and --flawed E or --error-rate R (SALUS on BIRD dev: --n 1534 --flawed 564)');
    await refused(() => leaderboard({ board, n: 1534, flawed: 564, flags: 'f.csv' }), '--board analyses a published leaderboard; do not combine it with verdict files or --flags');
    await refused(() => leaderboard({ board, n: 1534, flawed: 564, by: 'db' }), '--by db needs per-item verdicts; a published --board has no per-database scores');
    await refused(() => leaderboard({ items, metric: 'soft-f1', flags: 'f.csv' }), '--flags and --fail-under work with --metric ex or em, not soft-f1');
  });
  it('reports the first of two wrong options in the order it always did', async () => {
    await refused(() => leaderboard({ board, by: 'db', items }), '--by db needs per-item verdicts; a published --board has no per-database scores');
    await refused(() => leaderboard({ items, n: 10, seed: 0.5 }), '--n is for --board; with verdict files N is the number of tasks');
    // A published board has no seed: it is not checked there.
    await refused(() => leaderboard({ board, seed: 0.5 }), '--board needs --n N and --flawed E or --error-rate R (SALUS on BIRD dev: --n 1534 --flawed 564)');
  });
});

describe('stats: the rules of each subcommand table', () => {
  it('refuses each wrong value or combination before reading a file', async () => {
    await refused(() => stats({ statistic: 'interval', items: [`${NOWHERE}/i.jsonl`] }), '--items needs --metric soft-f1, ves or r-ves (for EX and EM use --k/--n or leaderboard)');
    await refused(() => stats({ statistic: 'interval', items: [`${NOWHERE}/i.jsonl`], metric: 'soft-f1', confidence: 95 }), '--confidence must be a fraction strictly between 0 and 1 (got 95) (a fraction, not a percent: 0.95?)');
    await refused(() => stats({ statistic: 'agreement', a: `${NOWHERE}/a.csv`, b: `${NOWHERE}/b.csv`, iterations: 0 }), '--iterations must be at least 1');
    await refused(() => stats({ statistic: 'agreement', a: `${NOWHERE}/a.csv`, b: `${NOWHERE}/b.csv`, seed: 2.5 }), '--seed must be a whole number (got 2.5)');
    await refused(() => stats({ statistic: 'gap', n: 100, errorRate: -0.2 }), '--error-rate must be a fraction in [0, 1] (got -0.2)');
    await refused(() => stats({ statistic: 'detector', tp: 1, fp: 1, fn: 1 }), 'missing --tn (a non-negative whole number)');
  });
  it('reports the first of two wrong options in the order it always did', async () => {
    await refused(() => stats({ statistic: 'interval', k: 5, n: 3, confidence: 2 }), '--k (5) cannot exceed --n (3)');
    await refused(() => stats({ statistic: 'interval', n: 3, confidence: 2 }), 'missing --k (a non-negative whole number)');
    await refused(() => stats({ statistic: 'agreement', a: 'a', b: 'b', iterations: -1, seed: 2.5 }), '--iterations must be a non-negative whole number (got -1)');
    await refused(() => stats({ statistic: 'gap', flawed: 5 }), 'missing --n (a non-negative whole number)');
    await refused(() => stats({ statistic: 'gap', n: 10, flawed: 50, confidence: 3 }), '--flawed (50) cannot exceed --n (10)');
  });
});

describe('resolveOptions', () => {
  const table = {
    a: { type: 'number', describe: 'a', min: 1 },
    b: { type: 'number', default: 2, describe: 'b', checks: [(v: unknown, o: Readonly<Record<string, unknown>>) => ((v as number) > ((o.a as number) ?? 0) ? '--b above --a' : undefined)] },
  } as const;
  it('fills defaults before the rules, which see every option; `order` decides which error comes first', () => {
    expect(resolveOptions(table, { a: 3 })).toEqual({ a: 3, b: 2 });
    expect(() => resolveOptions(table, { a: 1 })).toThrow('--b above --a');
    expect(() => resolveOptions(table, { a: 0 })).toThrow('--a must be a whole number ≥ 1 (got 0)');
    expect(() => resolveOptions(table, { a: 0 }, ['b'])).toThrow('--b above --a');
  });
  it('leaves the options it was given alone', () => {
    const given = { a: 3 };
    resolveOptions(table, given);
    expect(given).toEqual({ a: 3 });
  });
});
