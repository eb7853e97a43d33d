import { existsSync } from 'node:fs';
import { DEFAULT_STORE } from '../store/default-store.js';

/** The value of `--NAME VALUE` or `--NAME=VALUE` among the CLI's arguments. */
export function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i]!.startsWith(`--${name}=`)) return args[i]!.slice(name.length + 3);
  }
  return undefined;
}

/**
 * Whether a command will execute queries, so that its execution processes are worth starting
 * before the CLI loads (prespawn.ts): a `score` that asks for neither help nor the version, with
 * no run store yet (one that exists may hold every result). Kept apart from prespawn.ts, which
 * loads child_process: bin/sqlboard.js asks this first, so `score --help` loads neither.
 * `args`: the CLI's arguments (process.argv without node and the script).
 */
export function prespawnWanted(args: readonly string[]): boolean {
  if (args[0] !== 'score' || args.some((a) => a === '--help' || a === '-h' || a === '--version')) return false;
  return !existsSync(optionValue(args, 'store') ?? DEFAULT_STORE);
}
