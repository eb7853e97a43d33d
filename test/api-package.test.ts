import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SHARED, runCli } from './helpers/cli.js';

/*
 * The library API as a user gets it: `import ... from 'sqlboard'` resolved through package.json
 * "exports" (Node's self-reference) to the compiled dist/, with its .d.ts types. `npm test` builds
 * dist/ first (pretest); a run of this file alone builds it when it is missing.
 */

const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

function node(script: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'src', 'api.js'))) spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT });
}, 300_000);

describe("the package by its name ('sqlboard')", () => {
  it('stats returns the object `--json` prints and the report the CLI renders', async () => {
    const r = node(`
      import { stats } from 'sqlboard';
      const r = await stats({ statistic: 'interval', k: 803, n: 1034 });
      process.stdout.write(JSON.stringify({ json: r.json, title: r.report.title, sections: r.report.sections.length }));`);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { json: unknown; title: string; sections: number };
    const cli = await runCli(['stats', 'interval', '--k', '803', '--n', '1034', '--json']);
    expect(out.json).toEqual(JSON.parse(cli.stdout));
    expect(out.title).toMatch(/interval/i);
    expect(out.sections).toBeGreaterThan(0);
  });

  it('importRose reads a real ROSE run; a bad option is a UserError naming the flag, not a crash', async () => {
    const dir = join(SHARED, 'rose', 'output', 'benchmarking', 'gpt-5', 'o3-gpt-5-eval');
    const r = node(`
      import { importRose, stats, UserError } from 'sqlboard';
      const rose = await importRose({ dir: ${JSON.stringify(dir)}, system: 'gpt-5' });
      let error;
      try { await stats({ statistic: 'interval', k: 11, n: 10 }); } catch (e) { error = { user: e instanceof UserError, message: e.message }; }
      process.stdout.write(JSON.stringify({ json: rose.json, error }));`);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as { json: unknown; error: { user: boolean; message: string } };
    const cli = await runCli(['import', 'rose', dir, '--system', 'gpt-5', '--json']);
    expect(out.json).toEqual(JSON.parse(cli.stdout));
    expect(out.error).toEqual({ user: true, message: '--k (11) cannot exceed --n (10)' });
  });

  it('its types: a consumer program type-checks, and wrong options are type errors', () => {
    const r = spawnSync(process.execPath, [TSC, '-p', join(ROOT, 'test', 'api-consumer', 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
