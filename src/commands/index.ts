import type { Argv } from 'yargs';
import { auditCommand } from './audit.js';
import { importCommand } from './import.js';
import { judgeCommand } from './judge.js';
import { leaderboardCommand } from './leaderboard.js';
import { scoreCommand } from './score.js';
import { statsCommand } from './stats.js';
import { validateCommand } from './validate.js';

/** Every CLI verb, one module each, in the order `--help` lists them (the flow of the data). */
export function registerCommands<T>(cli: Argv<T>): Argv<T> {
  return cli
    .command(scoreCommand)
    .command(judgeCommand)
    .command(auditCommand)
    .command(leaderboardCommand)
    .command(statsCommand)
    .command(importCommand)
    .command(validateCommand);
}
