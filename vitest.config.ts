import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Three projects, chosen by rule so that a new test file lands without an edit here:
 * - fidelity: everything under test/fidelity/ (needs ../shared/datasets; `npm run test:fidelity`);
 * - e2e: any other test file that starts a process (the CLI through test/helpers/cli.ts, a browser,
 *   spawn/fork/execFile of its own, the execution processes through ExecutionEngine/ProcessPool);
 * - unit: the rest.
 * `npm test` runs unit and e2e (the fast suite, bundled data only). Timeouts are generous for every
 * project: a test's pass must not depend on the machine's load (docs/testing.md).
 */
const FIDELITY = 'test/fidelity/**/*.test.ts';
const STARTS_A_PROCESS = /\b(runCli|runCliAndKill|spawn|spawnSync|fork|execFile|execFileSync|execSync|launchChromium|ExecutionEngine|ProcessPool)\b/;

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const fastFiles = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts') && !f.startsWith('fidelity/'))
  .map((f) => `test/${f}`);
const e2e = fastFiles.filter((f) => STARTS_A_PROCESS.test(readFileSync(join(ROOT, f), 'utf8')));

export default defineConfig({
  test: {
    pool: 'forks',
    // vitest's default is one file at a time on 2 cores (cores - 1); the e2e files mostly wait for the
    // processes they start (measured: 272 s of CPU in 289 s of wall), so two at a time use both cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    // A test that takes 10 s on a quiet machine takes several times that under load (measured: a
    // tokenizer-bound unit test 8.7 s quiet, 217 s at load 20 on 2 cores).
    testTimeout: 300_000,
    hookTimeout: 600_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [FIDELITY, ...e2e] },
      },
      {
        extends: true,
        // Files matched when the run started; a file written later runs in unit until the next start.
        test: { name: 'e2e', include: e2e, globalSetup: ['test/setup/fresh-build.ts'] },
      },
      {
        extends: true,
        test: { name: 'fidelity', include: [FIDELITY], testTimeout: 600_000, globalSetup: ['test/setup/fidelity-data.ts', 'test/setup/fresh-build.ts'] },
      },
    ],
  },
});
