import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, SPIDER, runCli, type CliResult } from './helpers/cli.js';

/*
 * `sqlboard` as installed runs bin/sqlboard.js, which loads the bundle in dist/cli/ (built by
 * scripts/bundle-cli.ts after tsc), not the modules the other tests run through tsx. The bundle
 * must behave as the source does: the same text, the files it finds from its own location (data/,
 * prompts/, package.json, yargs' own files), and the execution and timing processes it forks.
 * `npm test` builds dist/ first (pretest); a run of this file alone builds it when it is missing.
 */

const tmp = mkdtempSync(join(tmpdir(), 'sqlboard-bundled-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

if (!existsSync(join(ROOT, 'dist', 'cli', 'verbs.json'))) {
  spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT });
  spawnSync(process.execPath, [join(ROOT, 'dist', 'scripts', 'bundle-cli.js')], { cwd: ROOT });
}

/** Every verb and subcommand that has options of its own. */
const VERB_HELPS = [
  ['score'],
  ['judge'],
  ['audit'],
  ['leaderboard'],
  ['validate'],
  ['stats', 'gap'],
  ['stats', 'prevalence'],
  ['stats', 'detector'],
  ['stats', 'interval'],
  ['stats', 'agreement'],
  ['import', 'rose'],
  ['batch', 'status'],
];

/** The bundled CLI as an installed user runs it, from a directory that is not the package's. */
const runBin = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCli(args, { bundled: true, cwd: tmp, env });

describe('the bundled CLI (bin/sqlboard.js → dist/cli/)', () => {
  it('prints the same help and errors as the source, and its own version', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect((await runBin(['--version'])).stdout.trim()).toBe(version);
    // validate's help has non-ASCII text (κ), which the bundle measures without string-width (scripts/narrow-text.ts).
    for (const args of [['--help'], ['score', '--help'], ['validate', '--help'], ['stats', 'gap', '--n', '1034', '--flawed', '100'], ['score', '--nope'], ['stats', 'gap', '--n', 'x']]) {
      const [bundled, source] = await Promise.all([runBin(args), runCli(args, { bundled: false })]);
      expect({ args, code: bundled.code, stdout: bundled.stdout, stderr: bundled.stderr }).toEqual({ args, code: source.code, stdout: source.stdout, stderr: source.stderr });
    }
    // yargs' messages in the user's language come from its own locales/, found from the bundle.
    const german = { LC_ALL: '', LC_MESSAGES: '', LANG: 'de_DE.UTF-8' };
    const [bundled, source] = await Promise.all([runBin(['stats', '--help'], german), runCli(['stats', '--help'], { env: german, bundled: false })]);
    expect(source.stdout).toContain('Optionen:');
    expect(bundled.stdout).toBe(source.stdout);
  });

  it("prints every verb's and subcommand's help as the source does", async () => {
    const helps = [[], ['stats'], ['import'], ['batch'], ...VERB_HELPS].map((args) => [...args, '--help']);
    for (const args of helps) {
      const [bundled, source] = await Promise.all([runBin(args), runCli(args, { bundled: false })]);
      expect({ args, code: bundled.code, stdout: bundled.stdout, stderr: bundled.stderr }).toEqual({ args, code: source.code, stdout: source.stdout, stderr: source.stderr });
      expect(bundled.stdout).toContain('--help');
    }
  });

  it("a verb's help loads only its flags; a command (even one refused) runs from its verb's one-file bundle", async () => {
    // A module hook records every file the CLI loads; the bundle's files name the modules they hold.
    const loaded = join(tmp, 'loaded.txt');
    const hooks = join(tmp, 'load-hooks.mjs');
    writeFileSync(
      hooks,
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, next) {\n' +
        "  if (url.startsWith('file:')) appendFileSync(process.env.SQLBOARD_LOADED, url + '\\n');\n" +
        '  return next(url, context);\n' +
        '}\n',
    );
    const hook = join(tmp, 'record-loads.mjs');
    writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const loads = async (args: string[], code: number): Promise<string[]> => {
      writeFileSync(loaded, '');
      const r = await runBin(args, { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`, SQLBOARD_LOADED: loaded });
      expect(r.code, r.stderr).toBe(code);
      return readFileSync(loaded, 'utf8').split('\n');
    };
    const cliFiles = (urls: string[]): string[] => urls.filter((u) => u.includes('/dist/cli/')).map((u) => u.slice(u.lastIndexOf('/') + 1));
    for (const [verb, ...sub] of VERB_HELPS) {
      const help = await loads([verb!, ...sub, '--help'], 0);
      // No execution process is started for help, and bin/ does not load the module that would (it loads child_process).
      expect(help.filter((u) => u.endsWith('/execution/prespawn.js'))).toEqual([]);
      const held = help
        .filter((u) => u.includes('/dist/cli/'))
        .map((u) => readFileSync(fileURLToPath(u), 'utf8'))
        .join('\n');
      // The verb's option table is loaded; its handler module, the library function behind it and the table renderer are not.
      expect(held).toMatch(/\/\/ dist\/src\/api\/[a-z-]+-options\.js/);
      expect({ verb, run: held.match(/\/\/ dist\/src\/(commands\/[a-z]+-run|api\/(score|judge|audit|validate|leaderboard|import-rose|batch-status|stats)|report\/terminal)\.js/g) }).toEqual({ verb, run: null });
      expect({ verb, files: cliFiles(await loads([verb!, ...sub, '--nope'], 2)) }).toEqual({ verb, files: [`verb-${verb}.js`] });
    }
    expect(cliFiles(await loads(['stats', 'gap', '--n', '1034', '--flawed', '100'], 0))).toEqual(['verb-stats.js']);
  });

  it('scores as the source does, through its own execution and timing processes and the bundled data', async () => {
    const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as unknown[];
    const questions = join(tmp, 'dev40.json');
    writeFileSync(questions, JSON.stringify(dev.slice(0, 40)));
    copyFileSync(join(SPIDER, 'tables.json'), join(tmp, 'tables.json'));
    const c3 = join(tmp, 'c3-40.sql');
    writeFileSync(c3, readFileSync(join(SPIDER, 'predictions', 'c3', 'predicted_sql.txt'), 'utf8').split('\n').slice(0, 40).join('\n') + '\n');
    const args = (store: string): string[] =>
      ['score', '--questions', questions, '--db-root', join(SPIDER, 'database'), '--system', `c3=${c3}`, '--metric', 'ex,em,ves', '--ves-reps', '2', '--store', join(tmp, store), '--json'];
    const [bundled, source] = await Promise.all([runBin(args('bundled.db')), runCli(args('source.db'), { bundled: false })]);
    expect(bundled.code, bundled.stderr).toBe(0);
    expect(source.code, source.stderr).toBe(0);
    type Out = { meta?: unknown; executionMs?: number; systems: { correct: number; metrics: Record<string, { mean: number; timing?: { timed: number; reps: number; failed: number } }> }[] };
    const b = JSON.parse(bundled.stdout) as Out;
    const s = JSON.parse(source.stdout) as Out;
    // VES is a ratio of timings: that it was timed is what must match.
    const { timed, reps, failed } = s.systems[0]!.metrics.ves!.timing!;
    expect(b.systems[0]!.metrics.ves!.timing).toMatchObject({ timed, reps, failed });
    expect(timed).toBeGreaterThan(0);
    const comparable = (o: Out): unknown => JSON.stringify(o, (k, v: unknown) => (k === 'meta' || k === 'executionMs' || k === 'ves' ? undefined : v));
    expect(comparable(b)).toBe(comparable(s));
    expect(b.systems[0]!.metrics.em!.mean).toBeGreaterThan(0);
  });
});
