import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { registerCommands } from './commands/index.js';
import { refuseRepeatedOptions } from './commands/repeated-options.js';
import { UserError } from './errors.js';
import { storeFailure } from './store/store-failure.js';
import { redact } from './llm/secrets.js';
import { ExitCode, worseExit } from './exit-codes.js';

/**
 * Every configured API key is removed from everything the process prints, whoever prints it
 * (tables, progress, warnings, errors): the last line of defence behind redaction at the
 * provider boundary (src/llm/secrets.ts).
 */
function redactStream(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => write(typeof chunk === 'string' ? redact(chunk) : chunk, ...rest)) as typeof stream.write;
}
redactStream(process.stdout);
redactStream(process.stderr);

/**
 * yargs renders the running command's whole help text right after calling its handler, in case
 * the program asks for it later (showHelp); sqlboard never does, and the rendering (text wrapping
 * of every option's description) cost more CPU than reading the benchmark. It is turned off.
 */
function skipHelpCaching(cli: object): void {
  const internal = (cli as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

async function main(): Promise<void> {
  const args = hideBin(process.argv);
  const cli = yargs(args)
    .scriptName('sqlboard')
    .strict()
    .demandCommand(1, 'Name a command; `sqlboard --help` lists them.')
    .recommendCommands()
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((msg, err) => {
      // yargs wraps what an option's coerce throws (a UserError naming the flag) in its own YError: a usage error.
      throw err && err.name !== 'YError' ? err : new UserError(err?.message ?? msg);
    });
  skipHelpCaching(cli);
  await refuseRepeatedOptions(await registerCommands(cli, args)).parseAsync();
}

/**
 * Ends the process once stdout and stderr have taken everything. By then every command has awaited
 * its work and written its files synchronously; what a natural exit would still do is tear down a
 * heap of 100 MB or more, which cost a run about 0.1 s.
 */
function exitWhenWritten(): void {
  process.stdout.write('', (err) => {
    const failed = stdoutError ?? err ?? undefined;
    if (failed) {
      const code = (failed as NodeJS.ErrnoException).code ?? failed.message;
      const why = code === 'EPIPE' ? 'the reader closed the pipe before the end' : 'it could not be written';
      process.stderr.write(`sqlboard: what this command printed on stdout is incomplete (${code}): ${why}\n`);
      process.exitCode = worseExit((process.exitCode ?? ExitCode.Complete) as ExitCode, ExitCode.UserError);
    }
    process.stderr.write('', () => process.exit());
  });
}

/**
 * stdout's first write error: a full disk (`> /dev/full`), a pipe closed early (`| head -c 10`).
 * Without a listener Node drops it and the run exited 0 with its report cut; the final write's
 * callback sees it too, and the exit is then non-zero.
 */
let stdoutError: Error | undefined;
process.stdout.on('error', (e: Error) => {
  stdoutError ??= e;
});

main()
  .catch((err: unknown) => {
    // A run store that breaks mid-run (a full disk) is the user's to fix, wherever it was met.
    if (!(err instanceof UserError)) err = storeFailure(err) ?? err;
    if (err instanceof UserError) {
      process.stderr.write(`sqlboard: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`sqlboard: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = ExitCode.Internal;
  })
  .then(exitWhenWritten);
