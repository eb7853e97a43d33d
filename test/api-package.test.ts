import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSpiderSubset } from './helpers/spider-subset.js';
import { ROOT, SPIDER, runCli } from './helpers/cli.js';
import { writeRoseRun, writeValidationSet, writeVerdicts } from './helpers/made-up-judging.js';
import { withoutMeta } from './helpers/meta.js';

/*
 * The library API as a user gets it: `import ... from 'sqlboard'` resolved through package.json
 * "exports" (Node's self-reference) to the compiled dist/, with its .d.ts types. `npm test` builds
 * dist/ first (pretest); a run of this file alone builds it when it is missing or older than a file
 * of src/ (a stale dist/ would test yesterday's code).
 */

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function node(script: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Calls one API function in a fresh process by the package name and returns what it resolved to. */
function call(fn: string, opts: object): { result: { json: object; notes: string[]; report: { title: string } } & Record<string, unknown>; stderr: string } {
  const r = node(`
    import { ${fn} } from 'sqlboard';
    const r = await ${fn}(${JSON.stringify(opts)});
    process.stdout.write(JSON.stringify(r));`);
  expect(r.code, r.stderr).toBe(0);
  return { result: JSON.parse(r.stdout), stderr: r.stderr };
}

/** The object without its wall-clock timings (keys ending in `Ms`), which differ from run to run. */
function untimed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untimed);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k.endsWith('Ms') ? typeof v : untimed(v)]));
}

/** tsc writes every output on each build, so dist/src/api.js is as old as the build. */
function buildDistIfStale(): void {
  const built = join(ROOT, 'dist', 'src', 'api.js');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : -Infinity;
  const sources = [join(ROOT, 'tsconfig.json'), join(ROOT, 'package.json'), ...readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((f) => join(ROOT, 'src', f))];
  if (!sources.some((f) => statSync(f).mtimeMs > builtAt)) return;
  const r = spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stdout + r.stderr).toBe(0);
}

// A real Spider dev subset: the first 24 questions (concert_singer, pets_1) and three systems' predictions for them.
const dir = mkdtempSync(join(tmpdir(), 'api-package-'));
const questions = join(dir, 'dev-24.json');
const dbRoot = join(SPIDER, 'database');
let systems: string[] = [];
const replay = join(dir, 'replay.jsonl');

beforeAll(() => {
  buildDistIfStale();
  systems = writeSpiderSubset(dir, questions, 0, 24);
  // Recorded judge answers: the Prover rejects every differing result, the Refuter upholds every equal one.
  const line = (o: object): string => JSON.stringify(o);
  writeFileSync(
    replay,
    [
      line({ contains: ['returned exactly the same result'], text: JSON.stringify({ reason: 'same rows', overturn: false, ambiguity: 'none', goldCorrect: true }) }),
      line({ contains: ['You are the Prover'], text: JSON.stringify({ expectedAnswer: 'the asked rows', sqlDescription: 'other rows', reason: 'differs', verdict: false }) }),
    ].join('\n') + '\n',
  );
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the package by its name ('sqlboard')", () => {
  it('stats returns the object `--json` prints and the report the CLI renders', async () => {
    const r = node(`
      import { stats } from 'sqlboard';
      const r = await stats({ statistic: 'interval', k: 803, n: 1034 });
      process.stdout.write(JSON.stringify({ json: r.json, title: r.report.title, sections: r.report.sections.length }));`);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { json: unknown; title: string; sections: number };
    const cli = await runCli(['stats', 'interval', '--k', '803', '--n', '1034', '--json']);
    expect(withoutMeta(out.json as object)).toEqual(withoutMeta(JSON.parse(cli.stdout)));
    expect(out.title).toMatch(/interval/i);
    expect(out.sections).toBeGreaterThan(0);
  });

  it('importRose reads a ROSE run; a bad option is a UserError naming the flag, not a crash', async () => {
    const dir = writeRoseRun(join(mkdtempSync(join(tmpdir(), 'sqlboard-api-rose-')), 'o3-x-eval'));
    const r = node(`
      import { importRose, stats, UserError } from 'sqlboard';
      const rose = await importRose({ dir: ${JSON.stringify(dir)}, system: 'x' });
      let error;
      try { await stats({ statistic: 'interval', k: 11, n: 10 }); } catch (e) { error = { user: e instanceof UserError, message: e.message }; }
      process.stdout.write(JSON.stringify({ json: rose.json, error }));`);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { json: unknown; error: { user: boolean; message: string } };
    const cli = await runCli(['import', 'rose', dir, '--system', 'x', '--json']);
    expect(withoutMeta(out.json as object)).toEqual(withoutMeta(JSON.parse(cli.stdout)));
    expect(out.error).toEqual({ user: true, message: '--k (11) cannot exceed --n (10)' });
  });

  it('its types: a consumer program type-checks, and wrong options are type errors', () => {
    const r = spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'test', 'api-consumer', 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('score, judge, audit and validate return the objects their --json prints, on real Spider dev data', async () => {
    // Each side its own run store, so both execute (the store's reuse counts are part of the output).
    const store = join(dir, 'run.db');
    const cliStore = join(dir, 'cli.db');
    const scored = call('score', { questions, dbRoot, system: systems, store });
    const scoreCli = await runCli(['score', '--questions', questions, '--db-root', dbRoot, '--store', cliStore, ...systems.flatMap((s) => ['--system', s]), '--json']);
    expect(scoreCli.code, scoreCli.stderr).toBe(0);
    expect(untimed(withoutMeta(scored.result.json))).toEqual(untimed(withoutMeta(JSON.parse(scoreCli.stdout))));
    expect((scored.result.json as { systems: unknown[] }).systems).toHaveLength(3);
    expect(scored.result.partial).toEqual([]);

    const judgeOpts = { questions, dbRoot, system: systems.slice(0, 1), provider: 'replay', replay, model: 'gpt-4o-2024-08-06', store };
    const judged = call('judge', judgeOpts);
    const judgeCli = await runCli(['judge', '--questions', questions, '--db-root', dbRoot, '--system', systems[0]!, '--provider', 'replay', '--replay', replay, '--model', 'gpt-4o-2024-08-06', '--store', cliStore, '--json']);
    expect(judgeCli.code, judgeCli.stderr).toBe(0);
    expect(untimed(withoutMeta(judged.result.json))).toEqual(untimed(withoutMeta(JSON.parse(judgeCli.stdout))));
    expect(judged.result.partial).toEqual([]);

    const audited = call('audit', { questions, dbRoot, agent: systems, store });
    const auditCli = await runCli(['audit', '--questions', questions, '--db-root', dbRoot, '--store', cliStore, ...systems.flatMap((s) => ['--agent', s]), '--json']);
    expect(auditCli.code, auditCli.stderr).toBe(0);
    expect(untimed(withoutMeta(audited.result.json))).toEqual(untimed(withoutMeta(JSON.parse(auditCli.stdout))));
    expect((audited.result.json as { tasks: number }).tasks).toBe(24);

    const set = writeValidationSet(join(dir, 'set.jsonl'));
    const o3 = writeVerdicts(dir, 'o3', 4);
    const validated = call('validate', { set: [set], judge: [o3], iterations: 50 });
    const validateCli = await runCli(['validate', '--set', set, '--judge', o3, '--iterations', '50', '--json']);
    expect(validateCli.code, validateCli.stderr).toBe(0);
    expect(withoutMeta(validated.result.json)).toEqual(withoutMeta(JSON.parse(validateCli.stdout)));
    // The library itself prints nothing.
    expect(scored.stderr + judged.stderr + audited.stderr + validated.stderr).toBe('');
  }, 600_000);

  it("progress reaches the caller's onProgress, stage by stage", () => {
    const r = node(`
      import { score } from 'sqlboard';
      const seen = [];
      await score({ questions: ${JSON.stringify(questions)}, dbRoot: ${JSON.stringify(dbRoot)}, system: ${JSON.stringify(systems)}, store: ${JSON.stringify(join(dir, 'progress.db'))},
                    onProgress: (stage, done, total) => seen.push([stage, done, total]) });
      process.stdout.write(JSON.stringify(seen));`);
    expect(r.stderr).toBe('');
    const seen = JSON.parse(r.stdout) as [string, number, number][];
    expect(new Set(seen.map(([stage]) => stage))).toEqual(new Set(['executing']));
    const last = seen.at(-1)!;
    expect(last[1]).toBe(last[2]);
    expect(last[2]).toBeGreaterThan(0);
  }, 300_000);
});
