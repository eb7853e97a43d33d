import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const ROOT = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
/**
 * The Spider dev set bundled with the package (questions, its 20 databases, 23 systems'
 * predictions, tables.json): the fast suite (`npm test`) reads only this, so it passes on a fresh clone.
 */
export const SPIDER = join(ROOT, 'data', 'spider');

/** Spider dev's gold in the official dev_gold.sql form (`SQL<TAB>db_id`), from the bundled dev.json (identical lines). */
export function devGoldLines(): string[] {
  const dev = JSON.parse(readFileSync(join(SPIDER, 'dev.json'), 'utf8')) as Array<{ query: string; db_id: string }>;
  return dev.map((q) => `${q.query}\t${q.db_id}`);
}

let goldFile: string | undefined;
/** A dev_gold.sql written once per test process from the bundled dev.json (devGoldLines). */
export function devGoldFile(): string {
  if (!goldFile) {
    goldFile = join(mkdtempSync(join(tmpdir(), 'sqlboard-gold-')), 'dev_gold.sql');
    writeFileSync(goldFile, devGoldLines().join('\n') + '\n');
  }
  return goldFile;
}

/** A bundled system whose predictions are in dev_gold.sql's form (`SQL<TAB>db_id`), one line per dev question. */
export const TAB_SYSTEM = { name: 'chatgpt-chang', file: join(SPIDER, 'predictions', 'chatgpt-zero-shot-chang2023', 'pred.sql') };

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * How the tests start the CLI by default: as an installed user runs it, bin/sqlboard.js and the
 * bundle in dist/cli/ (~0.2 s to start; test/setup/fresh-build.ts rebuilds dist/ first when src/ is
 * newer), or with SQLBOARD_TEST_CLI=source from the source through tsx (~1 s to start, no build).
 */
const BUNDLED_BY_DEFAULT = process.env.SQLBOARD_TEST_CLI !== 'source';

/** The node arguments that start the CLI: `bundled` true = bin/sqlboard.js, false = the source through tsx. */
export function cliEntry(bundled = BUNDLED_BY_DEFAULT): string[] {
  return bundled ? [join(ROOT, 'bin', 'sqlboard.js')] : ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')];
}

/**
 * Runs the CLI (see cliEntry; `bundled: false` forces the source, as test/bundled-cli.test.ts
 * compares the two) and collects what it prints.
 */
export function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; bundled?: boolean } = {}): Promise<CliResult> {
  const entry = cliEntry(opts.bundled);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Starts the CLI, waits until `ready()` holds, then kills it with SIGKILL — no chance to clean up —
 * and resolves with the signal it died of; fails when `ready()` does not hold within `timeoutMs`.
 */
export async function runCliAndKill(
  args: string[],
  ready: () => boolean,
  opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<NodeJS.Signals | null> {
  const child = spawn(process.execPath, [...cliEntry(), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdio: 'ignore',
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const t0 = Date.now();
  // Generous: on a loaded machine the CLI may take long to get there, and a kill before it would test nothing.
  while (!ready() && Date.now() - t0 < (opts.timeoutMs ?? 240_000)) await new Promise((r) => setTimeout(r, 20));
  const wasReady = ready();
  child.kill('SIGKILL');
  const signal = await exited;
  if (!wasReady) throw new Error(`runCliAndKill: the CLI did not reach the state to kill it in within ${opts.timeoutMs ?? 240_000} ms (sqlboard ${args.join(' ')})`);
  return signal;
}

/** The widest line of a command's output, in characters (what a terminal's columns count). */
export function maxLineWidth(text: string): number {
  return Math.max(0, ...text.split('\n').map((l) => [...l].length));
}
