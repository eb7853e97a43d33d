import type { CommandModule } from 'yargs';
import { importCommand } from './import.js';
import { validateCommand } from './validate.js';
import { scoreCommand } from './score.js';
import { statsCommand } from './stats.js';
import { leaderboardCommand } from './leaderboard.js';
import { judgeCommand } from './judge.js';
import { auditCommand } from './audit.js';

/**
 * Every CLI verb, one module each. Keep one import per line so parallel
 * work on different verbs does not collide.
 */
export const commands: CommandModule<object, any>[] = [
  importCommand,
  validateCommand,
  scoreCommand,
  statsCommand,
  leaderboardCommand,
  judgeCommand,
  auditCommand,
];
