import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from '../helpers/cli.js';

/**
 * globalSetup of the fast suite: the CLI tests run the built CLI (bin/sqlboard.js → dist/cli/, as a
 * user runs it), which starts in ~0.2 s where the source through tsx takes ~1 s, and the suite
 * starts the CLI several hundred times. So that no test runs yesterday's code, dist/ is rebuilt
 * here (once, before any test; in watch mode again before a re-run) whenever a file it is built
 * from is newer than the build. SQLBOARD_TEST_CLI=source runs the CLI tests through tsx instead,
 * without a build.
 */
const BUILT = join(ROOT, 'dist', 'cli', 'verbs.json'); // the build writes it last (scripts/bundle-cli.ts)
const INPUTS = ['src', 'scripts', 'bin'];

function newestInput(): number {
  let newest = Math.max(statSync(join(ROOT, 'package.json')).mtimeMs, statSync(join(ROOT, 'tsconfig.json')).mtimeMs);
  for (const dir of INPUTS) {
    for (const f of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) newest = Math.max(newest, statSync(join(ROOT, dir, f)).mtimeMs);
  }
  return newest;
}

function buildIfStale(): void {
  if (process.env.SQLBOARD_TEST_CLI === 'source') return;
  if (existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestInput()) return;
  // A fresh dist/ rather than tsc writing over the old files: a dist/ hard-linked into other
  // checkouts keeps its contents there.
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const t0 = Date.now();
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sqlboard tests: \`npm run build\` failed, so the CLI tests cannot run:\n${r.stdout}${r.stderr}`);
  process.stderr.write(`sqlboard tests: dist/ was older than src/; rebuilt in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}

export default function setup(project: TestProject): void {
  buildIfStale();
  project.onTestsRerun(() => buildIfStale());
}
