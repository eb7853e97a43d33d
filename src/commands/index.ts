import type { Argv, CommandModule } from 'yargs';
import { UserError } from '../errors.js';
import { VERBS, type VerbName } from './verbs.js';

// Each verb has its own argument type; yargs takes them all.
type AnyCommand = CommandModule<any, any>;

/** Each verb's module, loaded only when that verb runs. */
const MODULES: Record<VerbName, () => Promise<AnyCommand>> = {
  score: async () => (await import('./score.js')).scoreCommand,
  judge: async () => (await import('./judge.js')).judgeCommand,
  audit: async () => (await import('./audit.js')).auditCommand,
  leaderboard: async () => (await import('./leaderboard.js')).leaderboardCommand,
  stats: async () => (await import('./stats.js')).statsCommand,
  import: async () => (await import('./import.js')).importCommand,
  validate: async () => (await import('./validate.js')).validateCommand,
  batch: async () => (await import('./batch.js')).batchCommand,
};

/**
 * Every CLI verb, in the order `--help` lists them (the flow of the data). Only the verb named in
 * `args` loads its module and the libraries it needs; the others are listed from VERBS, so
 * `sqlboard --help` and any one command start without paying for all of them.
 */
export async function registerCommands<T>(cli: Argv<T>, args: readonly string[]): Promise<Argv<T>> {
  const verb = args.find((a): a is VerbName => Object.hasOwn(VERBS, a));
  for (const name of Object.keys(VERBS) as VerbName[]) {
    cli.command(
      name === verb
        ? await MODULES[name]()
        : {
            ...VERBS[name],
            // Reached only if an option's value before the verb was itself a verb's name.
            handler: () => {
              throw new UserError(`put the command first: sqlboard ${name} [options]`);
            },
          },
    );
  }
  return cli;
}
