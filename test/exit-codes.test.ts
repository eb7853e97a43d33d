import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, outcomeExitCode, worseExit } from '../src/exit-codes.js';
import { devGoldFile, runCli, SPIDER } from './helpers/cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-exit-'));
const DB = join(SPIDER, 'database');
// The first 40 Spider dev tasks (concert_singer, pets_1): small enough to score in a second or two.
const N = 40;
const QUESTIONS = join(tmp, 'dev40.json');
writeFileSync(QUESTIONS, JSON.stringify((JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[]).slice(0, N)));
const goldLines = readFileSync(devGoldFile(), 'utf8').split('\n').slice(0, N);
const GOLD = join(tmp, 'gold.sql');
writeFileSync(GOLD, goldLines.join('\n') + '\n');
// Every fourth prediction is wrong: 30/40 = 75%.
const HALF = join(tmp, 'three-quarters.sql');
writeFileSync(HALF, goldLines.map((l, i) => (i % 4 === 0 ? 'SELECT 1\t' + l.split('\t')[1] : l)).join('\n') + '\n');

const score = (extra: string[]) =>
  runCli(['score', '--questions', QUESTIONS, '--db-root', DB, '--store', join(tmp, 'store.db'), '--system', `gold=${GOLD}`, '--system', `tq=${HALF}`, ...extra]);

describe('exit codes', () => {
  it('severity: errors over partial over a missed gate over complete', () => {
    expect(worseExit(ExitCode.Complete, ExitCode.BelowThreshold)).toBe(ExitCode.BelowThreshold);
    expect(worseExit(ExitCode.Partial, ExitCode.BelowThreshold)).toBe(ExitCode.Partial);
    expect(worseExit(ExitCode.UserError, ExitCode.Partial)).toBe(ExitCode.UserError);
    expect(worseExit(ExitCode.UserError, ExitCode.Internal)).toBe(ExitCode.Internal);
    expect(outcomeExitCode({ partial: [], belowThreshold: [] })).toBe(0);
    expect(outcomeExitCode({ partial: ['x'], belowThreshold: ['y'] })).toBe(3);
    expect(outcomeExitCode({ partial: [], belowThreshold: ['y'] })).toBe(4);
    // The codes the README's table documents, each meaning one thing.
    expect(Object.values(ExitCode).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 130, 143]);
  });

  it('score: complete is 0; --fail-under met is 0; missed is 4 and names the system', async () => {
    const plain = await score(['--json']);
    expect(plain.code, plain.stderr).toBe(ExitCode.Complete);
    const acc = Object.fromEntries((JSON.parse(plain.stdout) as { systems: { name: string; accuracy: number }[] }).systems.map((s) => [s.name, s.accuracy]));
    expect(acc).toEqual({ gold: 1, tq: 0.75 });

    const met = await score(['--fail-under', 'ex=0.75', '--json']);
    expect(met.code, met.stderr).toBe(ExitCode.Complete);
    const missed = await score(['--fail-under', 'ex=80%', '--json']);
    expect(missed.code).toBe(ExitCode.BelowThreshold);
    expect(missed.stderr).toMatch(/tq: ex 75\.00% is below --fail-under ex=80\.00%/);
    expect(missed.stderr).not.toMatch(/gold:/);
    // The results are still printed in full before the gate's verdict.
    expect((JSON.parse(missed.stdout) as { systems: unknown[] }).systems).toHaveLength(2);
  });

  it('score: a malformed or impossible gate is a user error (2) before anything runs', async () => {
    for (const [spec, msg] of [
      ['ex=80', /80 is above 1; write a fraction \(0\.8\) or a percent \(80%\)/],
      ['f1=0.5', /unknown metric f1; this command gates ex .*clean/],
      ['ex>0.5', /write METRIC=VALUE/],
      ['clean=0.5', /needs --flags FILE/],
    ] as const) {
      const r = await score(['--fail-under', spec]);
      expect(r.code, spec).toBe(ExitCode.UserError);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
  });

  it('leaderboard: undecided verdicts make a partial result (3), which outranks a missed gate', async () => {
    const items = (nullAt: number | undefined) => {
      const f = join(tmp, `items-${nullAt ?? 'none'}.jsonl`);
      const lines: string[] = [];
      for (const system of ['a', 'b']) {
        for (let t = 0; t < 50; t++) lines.push(JSON.stringify({ system, taskId: String(t), correct: t === nullAt && system === 'b' ? null : (t % 5 !== 0) === (system === 'a' || t % 2 === 0) }));
      }
      writeFileSync(f, lines.join('\n') + '\n');
      return f;
    };
    const complete = await runCli(['leaderboard', items(undefined), '--iterations', '100', '--json']);
    expect(complete.code, complete.stderr).toBe(ExitCode.Complete);
    const gate = await runCli(['leaderboard', items(undefined), '--iterations', '100', '--fail-under', 'accuracy=0.7']);
    expect(gate.code).toBe(ExitCode.BelowThreshold);
    expect(gate.stderr).toMatch(/^sqlboard: b: accuracy .* is below --fail-under accuracy=70\.00%$/m);
    const partial = await runCli(['leaderboard', items(7), '--iterations', '100', '--fail-under', 'accuracy=0.7']);
    expect(partial.code).toBe(ExitCode.Partial);
    expect(partial.stderr).toMatch(/partial result: 1 verdicts in the input are undecided/);
    const board = await runCli(['leaderboard', '--board', 'x.csv', '--fail-under', 'ex=0.5']);
    expect(board.code).toBe(ExitCode.UserError);
  });

  it('an internal error (a bug: here stdout.write throwing, preloaded into the real CLI) exits 1 and says so', async () => {
    const bug = join(tmp, 'bug.mjs');
    writeFileSync(bug, "process.stdout.write = () => { throw new Error('simulated bug'); };\n");
    const r = await runCli(['stats', 'interval', '--k', '1', '--n', '2'], { env: { NODE_OPTIONS: `--import=${bug}` } });
    expect(r.code).toBe(ExitCode.Internal);
    expect(r.stderr).toMatch(/^sqlboard: internal error: Error: simulated bug/);
    // The same command without the bug is complete.
    expect((await runCli(['stats', 'interval', '--k', '1', '--n', '2'])).code).toBe(ExitCode.Complete);
  });
});
